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
  /** Per staging location (24-2 order, `grid24`): its own weight and the weight it counted with. */
  readonly weights: ReadonlyArray<{ readonly index: number; readonly own: CigtsWeight; readonly counted: CigtsWeight }>;
}

export type CigtsOutcome = CigtsScore | StageNotApplicable;

const neighbourLists = new Map<Pattern, number[][]>();

/**
 * Per staging location (24-2 order), the pattern indices of its CIGTS neighbours; null where CIGTS does not apply.
 * The series criterion (progression/criteria) and the tests read the same list.
 */
export function cigtsNeighbours(pattern: Pattern): ReadonlyArray<readonly number[]> | null {
  const grid = grid24(pattern);
  if (!grid) return null;
  let lists = neighbourLists.get(pattern);
  if (lists === undefined) {
    lists = neighbours(grid, hemifield).map((js) => js.map((j) => grid[j]!.index));
    neighbourLists.set(pattern, lists);
  }
  return lists;
}

/**
 * The CIGTS score of one field from its TD probability map (`tdp`, in the pattern's index order, as analyseResult gives
 * it). Not applicable off 24-2 and 30-2, or when a staging location has no probability (not measured).
 */
export function cigtsScore(tdp: ReadonlyArray<ProbabilityLevel | null>, pattern: Pattern): CigtsOutcome {
  const grid = grid24(pattern);
  const lists = cigtsNeighbours(pattern);
  if (!grid || !lists) return stageNotApplicable("pattern");
  const own = new Map<number, CigtsWeight>();
  for (const { index } of grid) {
    const level = tdp[index];
    if (level === null || level === undefined) return stageNotApplicable("missing-locations");
    own.set(index, cigtsWeight(level));
  }
  let sum = 0;
  const weights = grid.map(({ index }, k) => {
    const around = lists[k]!.map((j) => own.get(j)!).sort((a, b) => b - a);
    // Every 24-2 location has at least two neighbours in its hemifield; with fewer, nothing confirms it.
    const counted = Math.min(own.get(index)!, around[1] ?? 0) as CigtsWeight;
    sum += counted;
    return { index, own: own.get(index)!, counted };
  });
  return { applicable: true, score: sum / CIGTS_DIVISOR, weights };
}
