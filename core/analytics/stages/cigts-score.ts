import type { Pattern } from "../../model/enums.ts";
import type { ProbabilityLevel } from "../normative/tables.ts";
import { stageNotApplicable, type StageNotApplicable } from "./outcome.ts";
import { grid24, hemifield, neighbours } from "./staging-grid.ts";

/**
 * CIGTS visual field score: Musch DC, Lichter PR, Guire KE, Standardi CL, "The Collaborative Initial Glaucoma Treatment
 * Study: study design, methods, and baseline characteristics of enrolled patients", Ophthalmology 1999;106:653-662;
 * the neighbours as Gillespie BW et al., "The Collaborative Initial Glaucoma Treatment Study: baseline visual field and
 * test-retest variability", IOVS 2003;44:2613-2620. vfprogression (Elze et al.) was read as a description.
 *
 * The definition: each of the 52 non-blind-spot 24-2 locations gets a weight from its total-deviation probability,
 * 1, 2, 3 or 4 for p < 5 %, 2 %, 1 % or 0.5 %; a location counts with the lower of its own weight and the second-highest
 * weight among its neighbours in the same hemifield (so an isolated depressed point counts nothing); the sum divided by
 * 10.4 is the score, 0 to 20.
 */
export const CIGTS_MAX_SCORE = 20;
export const CIGTS_DIVISOR = 10.4;

export type CigtsWeight = 0 | 1 | 2 | 3 | 4;

/** The weight of a TD probability level (visualFields' levels: 0.005 means p < 0.5 %, ...; 0.95 and up weigh 0). */
export function cigtsWeight(level: ProbabilityLevel): CigtsWeight {
  if (level === 0.005) return 4;
  if (level === 0.01) return 3;
  if (level === 0.02) return 2;
  if (level === 0.05) return 1;
  return 0;
}

export interface CigtsScore {
  readonly applicable: true;
  /** 0 to 20; not rounded (screens show one decimal). */
  readonly score: number;
}

/** Off 24-2 and 30-2, or with a location not measured (a screening or missing normals give no TD probabilities to read). */
export type CigtsOutcome = CigtsScore | StageNotApplicable<"pattern" | "missing-locations">;

/** Per pattern: the staging locations' pattern indices and, per location, its neighbours' positions in that list. */
interface CigtsLayout {
  readonly indices: Int32Array;
  readonly around: ReadonlyArray<Int32Array>;
  readonly lists: ReadonlyArray<readonly number[]>;
}
const layouts = new Map<Pattern, CigtsLayout>();
function cigtsLayout(pattern: Pattern): CigtsLayout | null {
  const grid = grid24(pattern);
  if (!grid) return null;
  let layout = layouts.get(pattern);
  if (layout === undefined) {
    const around = neighbours(grid, hemifield);
    layout = {
      indices: Int32Array.from(grid, (p) => p.index),
      around: around.map((js) => Int32Array.from(js)),
      lists: around.map((js) => js.map((j) => grid[j]!.index)),
    };
    layouts.set(pattern, layout);
  }
  return layout;
}

/**
 * Per staging location (24-2 order, `grid24`), the pattern indices of its CIGTS neighbours; null where CIGTS does not
 * apply. The series criterion (progression/criteria) and the tests read the same list.
 */
export function cigtsNeighbours(pattern: Pattern): ReadonlyArray<readonly number[]> | null {
  return cigtsLayout(pattern)?.lists ?? null;
}

const scratch = new Uint8Array(52);

/**
 * The CIGTS score of one field from its TD probability map (`tdp`, in the pattern's index order, as analyseResult gives
 * it). Not applicable off 24-2 and 30-2, or when a staging location has no probability (not measured).
 */
export function cigtsScore(tdp: ReadonlyArray<ProbabilityLevel | null>, pattern: Pattern): CigtsOutcome {
  const layout = cigtsLayout(pattern);
  if (!layout) return stageNotApplicable("pattern");
  const { indices, around } = layout;
  const own = scratch; // reused call after call (no call re-enters); every location is written before it is read
  for (let k = 0; k < indices.length; k++) {
    const level = tdp[indices[k]!];
    if (level === null || level === undefined) return stageNotApplicable("missing-locations");
    own[k] = cigtsWeight(level);
  }
  let sum = 0;
  for (let k = 0; k < indices.length; k++) {
    if (own[k] === 0) continue;
    // The two highest neighbour weights; a location with fewer than two neighbours (none on 24-2) has nothing to confirm it.
    let first = 0,
      second = 0;
    for (const j of around[k]!) {
      const w = own[j]!;
      if (w > first) {
        second = first;
        first = w;
      } else if (w > second) second = w;
    }
    sum += Math.min(own[k]!, second);
  }
  return { applicable: true, score: sum / CIGTS_DIVISOR };
}
