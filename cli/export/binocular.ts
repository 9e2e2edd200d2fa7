import { byEye, integratedField, sameVisitFellow, type IntegratedFieldOutcome } from "../../core/analytics/binocular.ts";
import { Eye } from "../../core/model/enums.ts";
import type { ExportRecord } from "./record.ts";

// The binocular integrated visual field of a printed result's visit (issue 30, core/analytics/binocular.ts: the better
// eye's sensitivity at each point, Nelson-Quigg et al. 2000, Crabb and Viswanathan 2005), found as the web's page finds
// it (web/results/binocular-visit.ts, which the CLI may not import): the fellow eye's result of the same clinic day
// among the patient's results (sameVisitFellow: the same pattern first, then the nearest in time), and the field of
// the two (integratedField). Our choice where the web has no counterpart: the fellow is sought among the patient's
// exported records, so a filter that leaves the fellow eye out (--eye, --reliable-only, --pattern) leaves the field
// out, as it leaves results out of the printed progression and the difference plot.

/**
 * The integrated field of r's visit, or null for a result that is not one eye's (Esterman is binocular already).
 * Without a fellow result that day it is "not applicable: not the same day"; the print (core/plots/print-binocular.ts)
 * draws the field only when it applies.
 */
export function visitBinocular(r: ExportRecord, records: readonly ExportRecord[], timeZone: string): IntegratedFieldOutcome | null {
  const eye = r.result.eye;
  if (eye !== Eye.Right && eye !== Eye.Left) return null;
  const of = (x: ExportRecord) => ({ x, eye: x.result.eye, pattern: x.result.pattern, takenAt: x.result.takenAt });
  const fellow = sameVisitFellow(records.map(of), of(r), timeZone)?.x ?? null;
  if (!fellow) return { applicable: false, reason: "not-same-day" };
  const { right, left } = byEye(r.result, fellow.result);
  return integratedField(right, left, timeZone);
}
