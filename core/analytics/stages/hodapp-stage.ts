import { Pattern } from "../../model/enums.ts";
import type { ProbabilityLevel } from "../normative/tables.ts";
import { getPattern, statisticalIndices } from "../patterns.ts";
import { stageNotApplicable, type StageNotApplicable } from "./outcome.ts";
import { hemifield, isStagedPattern } from "./staging-grid.ts";

/**
 * Hodapp-Parrish-Anderson staging: Hodapp E, Parrish RK II, Anderson DR, "Clinical decisions in glaucoma", St Louis:
 * Mosby, 1993. The definition, on Humphrey STATPAC's MD, the pattern deviation (PD) probability map and the
 * sensitivities:
 * - early: MD better than -6 dB; fewer than 18 points (25 %) below 5 % and fewer than 10 below 1 % on the PD map; no point
 *   in the central 5 degrees below 15 dB;
 * - moderate: MD -6 to -12 dB; fewer than 37 points (50 %) below 5 % and fewer than 20 below 1 %; no point in the central
 *   5 degrees at 0 dB; points below 15 dB within 5 degrees of fixation in one hemifield only;
 * - severe: any of these exceeded.
 * The counts (25 % and 50 % of the points) are the 30-2's, of its 74 non-blind-spot points. On 24-2 (52 points) we
 * scale them (our choice; the book is silent on 24-2): 25 % and 50 % of 52 (13, 26) and the 1 % counts by 52/74 (7,
 * 14). On both grids the central 5 degrees are the four points at (+-3, +-3); "at 0 dB" includes "<0". At an exact
 * border the worse stage applies: MD -6.0 dB is moderate. A field that meets every early limit meets every moderate one.
 */
export type HodappStage = "early" | "moderate" | "severe";
export const HODAPP_STAGES: readonly HodappStage[] = ["early", "moderate", "severe"];

export type HodappCriterionId = "md" | "pd-below-5" | "pd-below-1" | "central-below-15" | "central-at-0" | "central-below-15-hemifields";

/** A limit a stage puts on a criterion's value: `above` and `below` are strict, `at-least` and `at-most` are not. */
export interface HodappLimit {
  readonly relation: "above" | "at-least" | "below" | "at-most";
  readonly bound: number;
  readonly met: boolean;
}

/** One criterion: the measured value and, per stage that bounds it, its limit and whether the field meets it. */
export interface HodappCriterion {
  readonly id: HodappCriterionId;
  readonly value: number;
  readonly early: HodappLimit | null;
  readonly moderate: HodappLimit | null;
}

export interface HodappResult {
  readonly applicable: true;
  readonly stage: HodappStage;
  /** In the order the screens list them. */
  readonly criteria: readonly HodappCriterion[];
  /** How many points the counts are taken over (52 on 24-2, 74 on 30-2). */
  readonly points: number;
}

export type HodappOutcome = HodappResult | StageNotApplicable;

export interface HodappInput {
  readonly pattern: Pattern;
  /** Sensitivities in dB, pattern index order. */
  readonly thresholds: ReadonlyArray<number | null>;
  /** The PD probability map, pattern index order. */
  readonly pdp: ReadonlyArray<ProbabilityLevel | null>;
  /** Humphrey STATPAC's MD (`normative.humphrey.md`). */
  readonly md: number;
}

const COUNT_LIMITS: Partial<Record<Pattern, { early: readonly [number, number]; moderate: readonly [number, number] }>> = {
  [Pattern.P30_2]: { early: [18, 10], moderate: [37, 20] },
  [Pattern.P24_2]: { early: [13, 7], moderate: [26, 14] },
};

const limit = (value: number, relation: HodappLimit["relation"], bound: number): HodappLimit => ({
  relation,
  bound,
  met:
    relation === "above" ? value > bound : relation === "at-least" ? value >= bound : relation === "below" ? value < bound : value <= bound,
});

/** Per pattern: the points counted and the central 5 degrees' points with their hemifield, built once. */
const layouts = new Map<Pattern, { points: readonly number[]; central: ReadonlyArray<readonly [number, "upper" | "lower"]> }>();
function hodappLayout(pattern: Pattern) {
  let layout = layouts.get(pattern);
  if (layout === undefined) {
    const geometry = getPattern(pattern);
    const points = statisticalIndices(geometry);
    const central = points
      .filter((i) => Math.abs(geometry.points[i]!.x) === 3 && Math.abs(geometry.points[i]!.y) === 3)
      .map((i) => [i, hemifield(geometry.points[i]!)] as const);
    layout = { points, central };
    layouts.set(pattern, layout);
  }
  return layout;
}

/** The stage with each criterion. Not applicable off 24-2 and 30-2 or with a point not measured. */
export function hodappStage(input: HodappInput): HodappOutcome {
  const { pattern, thresholds, pdp, md } = input;
  const counts = COUNT_LIMITS[pattern];
  if (!counts || !isStagedPattern(pattern)) return stageNotApplicable("pattern");
  const { points, central } = hodappLayout(pattern);
  let below5 = 0,
    below1 = 0;
  for (const i of points) {
    const level = pdp[i];
    if (level === null || level === undefined || thresholds[i] === null || thresholds[i] === undefined)
      return stageNotApplicable("missing-locations");
    if (level <= 0.05) below5++;
    if (level <= 0.01) below1++;
  }
  const under15 = central.filter(([i]) => thresholds[i]! < 15);
  const at0 = central.filter(([i]) => thresholds[i]! <= 0).length;
  const sides = new Set(under15.map(([, side]) => side)).size;

  const criteria: HodappCriterion[] = [
    { id: "md", value: md, early: limit(md, "above", -6), moderate: limit(md, "at-least", -12) },
    {
      id: "pd-below-5",
      value: below5,
      early: limit(below5, "below", counts.early[0]),
      moderate: limit(below5, "below", counts.moderate[0]),
    },
    {
      id: "pd-below-1",
      value: below1,
      early: limit(below1, "below", counts.early[1]),
      moderate: limit(below1, "below", counts.moderate[1]),
    },
    { id: "central-below-15", value: under15.length, early: limit(under15.length, "at-most", 0), moderate: null },
    { id: "central-at-0", value: at0, early: null, moderate: limit(at0, "at-most", 0) },
    { id: "central-below-15-hemifields", value: sides, early: null, moderate: limit(sides, "at-most", 1) },
  ];
  const meets = (stage: "early" | "moderate") => criteria.every((c) => c[stage]?.met ?? true);
  const stage: HodappStage = meets("early") ? "early" : meets("moderate") ? "moderate" : "severe";
  return { applicable: true, stage, criteria, points: points.length };
}
