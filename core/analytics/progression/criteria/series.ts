import type { Pattern } from "../../../model/enums.ts";
import type { NormativeTables } from "../../normative/tables.ts";
import type { SeriesAnalysis } from "../../series-analysis.ts";
import { type Regression, REGRESSION_PRECISION } from "../linear-regression.ts";
import { MIN_SLOPE_SPAN_DAYS } from "../md-slope.ts";
import { studentTCdf } from "../../statistics/student-t.ts";
import type { Verdict } from "./verdict.ts";

/**
 * What every series criterion reads: one eye's visits of one pattern, analysed once (series-analysis.ts) with a
 * normative database; the aggregator (index.ts) checks the input before any criterion runs.
 */
export interface CriteriaSeries {
  readonly pattern: Pattern;
  readonly nv: NormativeTables;
  /** analyseSeries with `visits` (per-visit TD, TD probabilities, global indices); PoPLR at least on TD. */
  readonly analysis: SeriesAnalysis & { readonly visits: NonNullable<SeriesAnalysis["visits"]> };
}

/** Days a year, as the regressions count time (visualFields). */
export const DAYS_PER_YEAR = 365.25;

/** The years from the first visit to the last. */
export const followUpYears = (series: CriteriaSeries): number => series.analysis.years.at(-1) ?? 0;

/**
 * Why a trend (a slope over time) may not be read from the series: fewer visits than the method needs, or visits
 * spanning under six months, the MD slope's rule (md-slope.ts: below that, test-retest variability dominates any rate).
 */
export function trendRefusal(series: CriteriaSeries, minVisits: number): "too-few-visits" | "too-short-follow-up" | null {
  if (series.analysis.nvisits < minVisits) return "too-few-visits";
  return followUpYears(series) * DAYS_PER_YEAR < MIN_SLOPE_SPAN_DAYS - 1e-6 ? "too-short-follow-up" : null;
}

/** A regression's two-sided p from visualFields' one-sided one (P(T <= t)). */
export const twoSidedP = (r: Pick<Regression, "p">): number => Math.min(1, 2 * Math.min(r.p, 1 - r.p));

/**
 * The verdict of a global trend (MD, VFI): worsening when the slope is negative with two-sided p <= alpha, improving when
 * positive with p <= alpha, else stable. `higherIsBetter` false for indices that grow with damage (PSD).
 */
export function slopeVerdict(r: Regression, alpha: number, higherIsBetter = true): Verdict {
  if (twoSidedP(r) > alpha || r.slope === 0) return "stable";
  return r.slope < 0 === higherIsBetter ? "worsening" : "improving";
}

/**
 * An ordinary least-squares fit of y on x over the chosen rows (row indices), as visualFields' plr computes it (slope,
 * se, one-sided p, an invariant series slope 0); null when the rows span no time. Kept apart from linear-regression.ts
 * because the omitting criteria refit subsets of the same series thousands of times: no arrays are built.
 */
export function subsetRegression(
  x: readonly number[],
  y: (row: number) => number,
  rows: readonly number[],
): { slope: number; t: number; df: number } | null {
  const n = rows.length;
  let mx = 0,
    my = 0;
  for (const k of rows) {
    mx += x[k]!;
    my += y(k);
  }
  mx /= n;
  my /= n;
  let sxx = 0,
    syy = 0,
    sxy = 0;
  for (const k of rows) {
    const dx = x[k]! - mx,
      dy = y(k) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx === 0) return null;
  if (Math.sqrt(syy / (n - 1)) <= REGRESSION_PRECISION) return { slope: 0, t: 0, df: n - 2 };
  const slope = sxy / sxx;
  const se = Math.sqrt(Math.max(0, (syy - sxx * slope * slope) / ((n - 2) * sxx)));
  return { slope, t: slope / se, df: n - 2 };
}

/** One-sided p of a subset fit (P(T <= t)); only asked once the slope passes a criterion's rate, the cheap test. */
export const subsetP = (fit: { t: number; df: number }): number => studentTCdf(fit.t, fit.df);
