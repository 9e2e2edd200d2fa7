import { type CriteriaSeries, trendRefusal } from "./series.ts";
import { type MethodOutcome, notApplicable, type Verdict } from "./verdict.ts";

/**
 * PoPLR (O'Leary N, Chauhan BC, Artes PH, "Visual field progression in glaucoma: estimating the overall significance
 * of deterioration with permutation analyses of pointwise linear regression (PoPLR)", IOVS 2012;53:6776-6784; poplr.ts)
 * on TD as a verdict. Our mapping: worsening when its left-tailed p (deterioration) is below 1 %, improving when its
 * right-tailed p is (poplr.ts computes both sides), else stable.
 * Our choice: at least 5 visits over at least six months. With 4 visits there are 24 orders, so the smallest p the
 * permutations can give is 1/24; with 5, 1/120.
 */
export const POPLR_ALPHA = 0.01;
export const POPLR_MIN_VISITS = 5;

export interface PoplrDetail {
  /** Left-tailed (deterioration) and right-tailed (improvement) permutation p-values. */
  readonly p: number;
  readonly pImproving: number;
  readonly alpha: number;
  readonly permutations: number;
  readonly exact: boolean;
}

export function poplrCriterion(series: CriteriaSeries): MethodOutcome<PoplrDetail> {
  const method = "poplr";
  const refusal = trendRefusal(series, POPLR_MIN_VISITS);
  if (refusal) return notApplicable(method, refusal);
  const result = series.analysis.poplr?.td;
  if (!result) throw new Error("poplrCriterion: the series analysis ran no PoPLR on TD");
  const verdict: Verdict = result.cslp < POPLR_ALPHA ? "worsening" : result.csrp < POPLR_ALPHA ? "improving" : "stable";
  return {
    method,
    applicable: true,
    verdict,
    detail: { p: result.cslp, pImproving: result.csrp, alpha: POPLR_ALPHA, permutations: result.nperm, exact: result.exact },
  };
}
