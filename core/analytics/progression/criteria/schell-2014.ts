import { humphreyMdPsd } from "../../global-indices.ts";
import { isStagedPattern } from "../../stages/staging-grid.ts";
import { baselineChange, type BaselineChangeDetail } from "./baseline-change.ts";
import type { CriteriaSeries } from "./series.ts";
import { type MethodOutcome, notApplicable } from "./verdict.ts";

/**
 * Schell GJ, Lavieri MS, Helm JE, et al., Ophthalmology 2014;121:1539-1546 (doi:10.1016/j.ophtha.2014.02.021), as
 * vfprogression (Elze et al.) describes the criterion ("essentially like CIGTS but with MD, and only one follow-up is
 * enough to confirm"): MD 3 dB or more below the mean of the two baseline visits on the last two visits (improving: 3 dB
 * above), no earlier follow-up the other way (baseline-change.ts); at least 4 visits.
 * Our choices: the MD is Humphrey's (weights 1/SD^2, global-indices.ts humphreyMdPsd), the trials' (CIGTS, AGIS)
 * Humphrey fields' index; on 24-2 and 30-2, the patterns those trials tested.
 */
export const SCHELL_THRESHOLD_DB = 3;
export const SCHELL_CONFIRMATIONS = 2;
export const SCHELL_MIN_VISITS = 2 + SCHELL_CONFIRMATIONS;

export type SchellDetail = BaselineChangeDetail;

export function schell2014(series: CriteriaSeries): MethodOutcome<SchellDetail> {
  const method = "schell-2014";
  if (!isStagedPattern(series.pattern)) return notApplicable(method, "pattern");
  if (series.analysis.nvisits < SCHELL_MIN_VISITS) return notApplicable(method, "too-few-visits");
  const md = series.analysis.visits.td.map((td) => humphreyMdPsd(series.nv, td).md);
  const { verdict, detail } = baselineChange(md, false, SCHELL_THRESHOLD_DB, SCHELL_CONFIRMATIONS);
  return { method, applicable: true, verdict, detail };
}
