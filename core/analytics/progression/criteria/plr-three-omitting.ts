import { type PlrDetail, PLR_NOURI_MIN_VISITS, pointwiseCriterion } from "./plr-nouri-2012.ts";
import type { CriteriaSeries } from "./series.ts";
import type { MethodOutcome } from "./verdict.ts";

/**
 * Pointwise linear regression with the "three-omitting" confirmation (Gardiner SK, Crabb DP, "Examination of different
 * pointwise linear regression methods for determining visual field progression", IOVS 2002;43:1400-1407: "the most
 * specific was a new 'Three-Omitting' method ... using two confirmation fields in a novel way"). A published IOVS
 * evaluation (iovs.arvojournals.org/article.aspx?articleid=2164743) summarises it: with fields n1 to n5, the location is
 * fitted on n1-n3 (the last two removed); if it meets the criterion, the last of those is swapped for the next field
 * (n1, n2, n4), then for the final one (n1, n2, n5); it progresses only if all three fits meet the criterion; "the
 * estimated specificity is between 95.2% and 98.2%".
 * So with n visits: the first n - 3 visits plus each of the last three in turn. The location criterion and the eye's
 * margin are Nouri-Mahdavi 2012's as the other PLR criterion reads them (plr-nouri-2012.ts): our choice, so the two PLR
 * criteria differ only in their confirmation. (Progressor's own criterion, 1 dB/year centrally and 2 dB/year at the
 * edge at p < 0.01, is the device's, not the method's.) Each fit needs 3 visits, so 5 visits at least.
 */
export const PLR_THREE_OMITTING_MIN_VISITS = PLR_NOURI_MIN_VISITS + 1;

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

/** The three fits of n visits: the first n - 3 with visit n - 3, with n - 2, with n - 1 (0-based). */
export const threeOmittingFits = (n: number): number[][] => [n - 3, n - 2, n - 1].map((last) => [...range(0, n - 3), last]);

export function plrThreeOmitting(series: CriteriaSeries): MethodOutcome<PlrDetail> {
  return pointwiseCriterion("plr-three-omitting", series, PLR_THREE_OMITTING_MIN_VISITS, threeOmittingFits);
}
