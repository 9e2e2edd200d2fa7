import { grid24 } from "../../stages/staging-grid.ts";
import { type CriteriaSeries, subsetP, subsetRegression, trendRefusal } from "./series.ts";
import { type MethodId, type MethodOutcome, notApplicable, type Verdict } from "./verdict.ts";

/**
 * Pointwise linear regression after Nouri-Mahdavi K et al., Invest Ophthalmol Vis Sci 2012;53:2390-2394
 * (doi:10.1167/iovs.11-9021), as vfprogression (Elze, Li, Choi; GPL) describes the criterion; read, not copied:
 * - per location, TD regressed on follow-up years; a location changes when |slope| >= 1 dB/year with (two-sided)
 *   p <= 0.01, worsening when the slope is negative;
 * - confirmed by omitting ("two-omitting", Gardiner & Crabb, IOVS 2002;43:1400-1407): the location must change the same
 *   way in the fit without the last visit and in the fit without the one before it;
 * - the eye is worsening when its worsening locations outnumber its improving ones by 3 or more (improving likewise).
 * On the 52 non-blind-spot 24-2 locations (on 30-2 those 52, as the stages read them: staging-grid.ts).
 * Our choices where the description leaves a gap: each fit needs 3 visits (so 4 visits at least), the visits span at
 * least six months (the MD slope's rule, md-slope.ts), and a fit whose visits span no time changes nothing.
 */
export const PLR_RATE_DB_PER_YEAR = 1;
export const PLR_P = 0.01;
/** Worsening locations needed beyond the improving ones (and the reverse). */
export const PLR_MARGIN = 3;
export const PLR_NOURI_MIN_VISITS = 4;

/** -1 worsening, 1 improving, 0 unchanged: one fit against the location criterion. */
export type LocationChange = -1 | 0 | 1;

export function locationChange(fit: { slope: number; t: number; df: number } | null): LocationChange {
  if (fit === null || Math.abs(fit.slope) < PLR_RATE_DB_PER_YEAR) return 0; // the rate first: the p-value costs more
  const p = subsetP(fit);
  return 2 * Math.min(p, 1 - p) <= PLR_P ? (fit.slope < 0 ? -1 : 1) : 0;
}

export interface PlrDetail {
  /** Pattern indices of the locations that worsen (improve) in every confirming fit. */
  readonly worseningLocations: number[];
  readonly improvingLocations: number[];
  /** The rule, for the screens: rate in dB/year, two-sided p, margin of locations. */
  readonly rule: { readonly rateDbPerYear: number; readonly p: number; readonly margin: number };
}

/**
 * The shared pointwise part of both PLR criteria: each of the 52 locations judged by every subset of visits in `fits`
 * (a location changes only when all subsets agree), then the eye by the margin.
 */
export function pointwiseCriterion(
  method: MethodId,
  series: CriteriaSeries,
  minVisits: number,
  fits: (n: number) => number[][],
): MethodOutcome<PlrDetail> {
  const grid = grid24(series.pattern);
  if (!grid) return notApplicable(method, "pattern");
  const refusal = trendRefusal(series, minVisits);
  if (refusal) return notApplicable(method, refusal);
  const { years, visits, nvisits } = series.analysis;
  const subsets = fits(nvisits);
  const worseningLocations: number[] = [],
    improvingLocations: number[] = [];
  for (const { index } of grid) {
    const td = (k: number) => visits.td[k]![index]!;
    let agreed: LocationChange | null = null;
    for (const rows of subsets) {
      const change = locationChange(subsetRegression(years, td, rows));
      if (agreed !== null && change !== agreed) {
        agreed = 0;
        break;
      }
      agreed = change;
      if (change === 0) break;
    }
    if (agreed === -1) worseningLocations.push(index);
    else if (agreed === 1) improvingLocations.push(index);
  }
  const w = worseningLocations.length,
    i = improvingLocations.length;
  const verdict: Verdict = w >= i + PLR_MARGIN ? "worsening" : i >= w + PLR_MARGIN ? "improving" : "stable";
  return {
    method,
    applicable: true,
    verdict,
    detail: { worseningLocations, improvingLocations, rule: { rateDbPerYear: PLR_RATE_DB_PER_YEAR, p: PLR_P, margin: PLR_MARGIN } },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

/** The two-omitting fits of n visits: without the last, and without the one before it. */
export const twoOmittingFits = (n: number): number[][] => [range(0, n - 1), [...range(0, n - 2), n - 1]];

export function plrNouri2012(series: CriteriaSeries): MethodOutcome<PlrDetail> {
  return pointwiseCriterion("plr-nouri-2012", series, PLR_NOURI_MIN_VISITS, twoOmittingFits);
}
