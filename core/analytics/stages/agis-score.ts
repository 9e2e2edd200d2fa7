import type { Pattern } from "../../model/enums.ts";
import type { PatternPoint } from "../patterns.ts";
import { stageNotApplicable, type StageNotApplicable } from "./outcome.ts";
import { grid24, hemifield, neighbours } from "./staging-grid.ts";

/**
 * AGIS visual field defect score: The AGIS Investigators (Gaasterland DE, Ederer F, Sullivan EK, Caprioli J, Cyrlin
 * MN), "Advanced Glaucoma Intervention Study. 2. Visual field test scoring and reliability", Ophthalmology
 * 1994;101:1445-1455 (Fig. 1 and p. 1448), as Katz J summarises it ("Scoring systems for measuring progression of visual
 * field loss in clinical trials of glaucoma treatment", Ophthalmology 1999;106:391-395). vfprogression (Elze et al.)
 * was read as a description of the rules; the criteria below are the paper's facts, the code ours.
 *
 * The definition, on the total deviation (TD) of the 52 non-blind-spot 24-2 locations:
 * - a location is depressed when its TD is at or below its criterion (-5 to -9 dB, Fig. 1);
 * - locations are grouped in three sectors, the six nasal ones and the rest of the upper and of the lower hemifield;
 *   a cluster is a set of depressed locations joined by neighbours (across or diagonally) within one sector;
 * - nasal defect, 0-2: 1 when the depressed nasal locations lie in one hemifield only (a nasal step) or form a cluster
 *   of 3 or more; 1 more when 4 or more of the 6 nasal locations have TD at or below -12 dB;
 * - each hemifield, 0-9: from its clusters of 3 or more locations, 1 each for 3, 6, 13 and 20 locations in them, and 1
 *   each when at least half of those locations have TD at or below -12, -16, -20, -24 and -28 dB;
 * - the score is the sum, 0 (normal) to 20 (end stage).
 */
export const AGIS_MAX_SCORE = 20;

/** The depression criteria of AGIS 2 Fig. 1 in dB of TD, per 24-2 row (y, top first), by ascending x; null = blind spot. */
const CRITERIA_BY_ROW: ReadonlyArray<readonly [number, ReadonlyArray<number | null>]> = [
  [21, [-9, -9, -9, -9]],
  [15, [-8, -8, -8, -8, -8, -8]],
  [9, [-8, -8, -6, -6, -6, -6, -8, -8]],
  [3, [-9, -8, -6, -6, -6, -6, -6, null, -8]],
  [-3, [-9, -7, -5, -5, -5, -5, -5, null, -7]],
  [-9, [-7, -7, -5, -5, -5, -5, -7, -7]],
  [-15, [-7, -7, -7, -7, -7, -7]],
  [-21, [-7, -7, -7, -7]],
];
const ROW_START_X: Record<number, number> = { 21: -9, 15: -15, 9: -21, 3: -27, [-3]: -27, [-9]: -21, [-15]: -15, [-21]: -9 };

/** The AGIS criterion (dB of TD) at a 24-2 location in right-eye coordinates. */
export function agisCriterion(p: PatternPoint): number {
  const row = CRITERIA_BY_ROW.find(([y]) => y === p.y);
  const value = row?.[1][(p.x - ROW_START_X[p.y]!) / 6];
  if (value === null || value === undefined) throw new Error(`no AGIS criterion at (${p.x}, ${p.y})`);
  return value;
}

const NASAL = new Set(["-21,9", "-27,3", "-21,3", "-27,-3", "-21,-3", "-21,-9"]);
/** AGIS sector of a location (right-eye orientation: nasal is negative x). */
export const agisSector = (p: PatternPoint): "nasal" | "upper" | "lower" => (NASAL.has(`${p.x},${p.y}`) ? "nasal" : hemifield(p));

const EXTENT_STEPS = [3, 6, 13, 20] as const;
const DEPTH_STEPS = [12, 16, 20, 24, 28] as const;
const NASAL_DEEP = -12;

export interface AgisScore {
  readonly applicable: true;
  /** 0 to 20. */
  readonly score: number;
  readonly nasal: number;
  readonly upper: number;
  readonly lower: number;
  /** Pattern indices of the depressed locations. */
  readonly depressed: readonly number[];
}

export type AgisOutcome = AgisScore | StageNotApplicable;

/** Per pattern, the staging grid's criteria, sectors and AGIS neighbours (positions in the grid), built once. */
interface AgisLayout {
  readonly indices: readonly number[];
  readonly criteria: readonly number[];
  readonly sectors: ReadonlyArray<"nasal" | "upper" | "lower">;
  readonly upperSide: readonly boolean[];
  readonly adjacent: ReadonlyArray<readonly number[]>;
}
const layouts = new Map<Pattern, AgisLayout>();
function agisLayout(pattern: Pattern): AgisLayout | null {
  const grid = grid24(pattern);
  if (!grid) return null;
  let layout = layouts.get(pattern);
  if (layout === undefined) {
    layout = {
      indices: grid.map((p) => p.index),
      criteria: grid.map(agisCriterion),
      sectors: grid.map(agisSector),
      upperSide: grid.map((p) => hemifield(p) === "upper"),
      adjacent: neighbours(grid, agisSector),
    };
    layouts.set(pattern, layout);
  }
  return layout;
}

/** The AGIS score of one field from its TD values (pattern index order). */
export function agisScore(td: ReadonlyArray<number | null>, pattern: Pattern): AgisOutcome {
  const layout = agisLayout(pattern);
  if (!layout) return stageNotApplicable("pattern");
  const { indices, criteria, sectors, upperSide, adjacent } = layout;
  const n = indices.length;
  // Scratch buffers reused call after call (no call re-enters): allocating them was a third of the cost.
  const { values, down } = scratch;
  down.fill(0);
  const depressed: number[] = [];
  for (let k = 0; k < n; k++) {
    const v = td[indices[k]!];
    if (v === null || v === undefined || Number.isNaN(v)) return stageNotApplicable("missing-locations");
    values[k] = v;
    if (v <= criteria[k]!) {
      down[k] = 1;
      depressed.push(indices[k]!);
    }
  }
  if (depressed.length === 0) return { applicable: true, score: 0, nasal: 0, upper: 0, lower: 0, depressed };
  const { label, sizes } = clustersOf(down, adjacent);

  // Nasal: a step (depressed nasal locations in one hemifield only) or a cluster of 3 or more; 4 deep ones add 1.
  let nasal = 0,
    nasalUpper = false,
    nasalLower = false,
    nasalBig = false,
    nasalDeep = 0;
  for (let k = 0; k < n; k++) {
    if (sectors[k] !== "nasal") continue;
    if (values[k]! <= NASAL_DEEP) nasalDeep++;
    if (label[k] === 0) continue;
    if (upperSide[k]) nasalUpper = true;
    else nasalLower = true;
    if (sizes[label[k]!]! >= 3) nasalBig = true;
  }
  if ((nasalUpper || nasalLower) && (nasalUpper !== nasalLower || nasalBig)) nasal = 1;
  if (nasalDeep >= 4) nasal += 1;

  const upper = hemifieldScore("upper", sectors, label, sizes, values);
  const lower = hemifieldScore("lower", sectors, label, sizes, values);
  return { applicable: true, score: nasal + upper + lower, nasal, upper, lower, depressed };
}

const scratch = {
  values: new Float64Array(52),
  down: new Uint8Array(52),
  label: new Uint8Array(52),
  queue: new Int32Array(52),
};

/** One hemifield's part: from the locations of its clusters of 3 or more, their count and the depths half of them reach. */
function hemifieldScore(
  side: "upper" | "lower",
  sectors: AgisLayout["sectors"],
  label: Uint8Array,
  sizes: readonly number[],
  values: Float64Array,
): number {
  let sites = 0;
  const reached = [0, 0, 0, 0, 0];
  for (let k = 0; k < values.length; k++) {
    if (sectors[k] !== side || label[k] === 0 || sizes[label[k]!]! < 3) continue;
    sites++;
    for (let d = 0; d < DEPTH_STEPS.length; d++) if (values[k]! <= -DEPTH_STEPS[d]!) reached[d]!++;
  }
  if (sites === 0) return 0;
  let score = 0;
  for (const step of EXTENT_STEPS) if (sites >= step) score++;
  for (const r of reached) if (r >= sites / 2) score++;
  return score;
}

/** Connected groups of flagged positions along the neighbour lists: each position's group (1, 2, ...; 0 = not flagged) and the groups' sizes. */
function clustersOf(flagged: Uint8Array, adjacent: ReadonlyArray<readonly number[]>): { label: Uint8Array; sizes: number[] } {
  const { label, queue } = scratch;
  label.fill(0);
  const sizes = [0];
  for (let start = 0; start < flagged.length; start++) {
    if (!flagged[start] || label[start]) continue;
    const id = sizes.length;
    label[start] = id;
    let head = 0,
      tail = 0;
    queue[tail++] = start;
    while (head < tail) {
      for (const j of adjacent[queue[head++]!]!)
        if (flagged[j] && !label[j]) {
          label[j] = id;
          queue[tail++] = j;
        }
    }
    sizes.push(tail);
  }
  return { label, sizes };
}
