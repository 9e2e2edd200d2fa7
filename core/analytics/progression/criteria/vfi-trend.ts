import { Pattern } from "../../../model/enums.ts";
import { studentTCdf } from "../../statistics/student-t.ts";
import { type CriteriaSeries, DAYS_PER_YEAR, followUpYears, slopeVerdict, twoSidedP } from "./series.ts";
import { type MethodOutcome, notApplicable } from "./verdict.ts";

/**
 * The VFI trend under the rules of Humphrey's Guided Progression Analysis (Humphrey Field Analyzer II-i series User
 * Manual 2660021145640 A, GPA chapter, "VFI Plot"): "A minimum of 5 exams over 2 years or more must be included in GPA
 * for the linear regression results to be presented. In addition, the linear regression line will not be drawn if the
 * slope of the line is positive. Finally, this line will also not be drawn when the 95% confidence limit on the
 * measured slope is greater than 5%." The VFI bar then shows "the 2 to 5 year projection of the linear regression line".
 * The VFI (Bengtsson & Heijl, Am J Ophthalmol 2008) is a Humphrey index of 24-2 and 30-2, the patterns GPA analyses.
 * Our readings where the manual is terse: "2 years" is 730.5 days; the confidence limit is the 95 % interval's half
 * width (t at 97.5 % times the slope's standard error) in % per year; the projection runs 2, 3, 4 and 5 years past the
 * last exam with the 95 % confidence band of the fitted line (not of a single future test), clipped to 0-100 %.
 * Verdict (ours): worsening when the slope is negative with two-sided p <= 5 % (the VFI criterion's level in
 * vfprogression, after Aptel et al., Acta Ophthalmol 2015), else stable; a positive slope is not shown, so never improving.
 */
export const VFI_MIN_EXAMS = 5;
export const VFI_MIN_YEARS = 2;
/** The widest 95 % confidence half-width of the slope GPA still draws, % per year. */
export const VFI_MAX_CONFIDENCE_LIMIT = 5;
export const VFI_PROJECTION_YEARS = [2, 3, 4, 5] as const;
export const VFI_ALPHA = 0.05;
export const VFI_PATTERNS: readonly Pattern[] = [Pattern.P24_2, Pattern.P30_2];

export interface VfiProjection {
  /** Years after the last exam. */
  readonly yearsAhead: number;
  /** The fitted line's VFI (%) there and its 95 % confidence band. */
  readonly vfi: number;
  readonly lower: number;
  readonly upper: number;
}

export interface VfiTrendDetail {
  /** % per year, its 95 % confidence interval and two-sided p. */
  readonly slopePerYear: number;
  readonly confidence95: readonly [number, number];
  readonly p: number;
  readonly alpha: number;
  /** The fitted VFI at the last exam (%). */
  readonly vfiAtLast: number;
  readonly projection: VfiProjection[];
}

const t975 = new Map<number, number>();
/** Student's t at 97.5 % for df degrees of freedom (bisection on the distribution function; cached per df). */
function studentT975(df: number): number {
  let t = t975.get(df);
  if (t === undefined) {
    let lo = 0,
      hi = 1000;
    for (let k = 0; k < 100; k++) {
      const mid = (lo + hi) / 2;
      if (studentTCdf(mid, df) < 0.975) lo = mid;
      else hi = mid;
    }
    t975.set(df, (t = (lo + hi) / 2));
  }
  return t;
}

const clip = (v: number) => Math.min(100, Math.max(0, v));

export function vfiTrend(series: CriteriaSeries): MethodOutcome<VfiTrendDetail> {
  const method = "vfi-trend";
  if (!VFI_PATTERNS.includes(series.pattern)) return notApplicable(method, "pattern");
  const { years, nvisits } = series.analysis;
  if (nvisits < VFI_MIN_EXAMS) return notApplicable(method, "too-few-visits");
  if (followUpYears(series) * DAYS_PER_YEAR < VFI_MIN_YEARS * DAYS_PER_YEAR - 1e-6) return notApplicable(method, "too-short-follow-up");
  const vfi = series.analysis.glr!.vfi;
  const half = studentT975(nvisits - 2) * vfi.se;
  if (vfi.slope > 0 || half > VFI_MAX_CONFIDENCE_LIMIT) return notApplicable(method, "not-shown-by-rule");
  // The fitted line's standard error at x: s * sqrt(1/n + (x - mean)^2 / Sxx), s = se(slope) * sqrt(Sxx).
  const mean = years.reduce((a, b) => a + b, 0) / nvisits;
  const sxx = years.reduce((a, x) => a + (x - mean) ** 2, 0);
  const s = vfi.se * Math.sqrt(sxx);
  const last = years.at(-1)!;
  const at = (x: number) => vfi.intercept + vfi.slope * x;
  const projection = VFI_PROJECTION_YEARS.map((yearsAhead) => {
    const x = last + yearsAhead;
    const band = studentT975(nvisits - 2) * s * Math.sqrt(1 / nvisits + (x - mean) ** 2 / sxx);
    return { yearsAhead, vfi: clip(at(x)), lower: clip(at(x) - band), upper: clip(at(x) + band) };
  });
  return {
    method,
    applicable: true,
    verdict: slopeVerdict(vfi, VFI_ALPHA),
    detail: {
      slopePerYear: vfi.slope,
      confidence95: [vfi.slope - half, vfi.slope + half],
      p: twoSidedP(vfi),
      alpha: VFI_ALPHA,
      vfiAtLast: at(last),
      projection,
    },
  };
}
