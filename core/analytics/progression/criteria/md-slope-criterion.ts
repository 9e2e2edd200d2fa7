import { MIN_SLOPE_RESULTS } from "../md-slope.ts";
import { type CriteriaSeries, slopeVerdict, trendRefusal, twoSidedP } from "./series.ts";
import { type MethodOutcome, notApplicable } from "./verdict.ts";

/**
 * The MD slope (visualFields' MD, tmd, regressed on years: the progression chart's slope, md-slope.ts) as a verdict,
 * only where md-slope.ts allows a slope at all (3 results over at least six months). md-slope.ts names no
 * significance; ours: worsening when the slope is negative with two-sided p <= 5 %, improving when positive with
 * p <= 5 %, else stable (the VFI criterion's level in vfprogression, after Aptel et al. 2015).
 */
export const MD_SLOPE_ALPHA = 0.05;

export interface MdSlopeDetail {
  /** dB per year (not rounded) and the two-sided p of the slope. */
  readonly slopePerYear: number;
  readonly p: number;
  readonly alpha: number;
}

export function mdSlopeCriterion(series: CriteriaSeries): MethodOutcome<MdSlopeDetail> {
  const method = "md-slope";
  const refusal = trendRefusal(series, MIN_SLOPE_RESULTS);
  if (refusal) return notApplicable(method, refusal);
  const md = series.analysis.glr!.tmd;
  return {
    method,
    applicable: true,
    verdict: slopeVerdict(md, MD_SLOPE_ALPHA),
    detail: { slopePerYear: md.slope, p: twoSidedP(md), alpha: MD_SLOPE_ALPHA },
  };
}
