import { type IntegratedFieldOutcome, visitWithBothEyes } from "../../core/analytics/binocular.ts";
import type { ExportRecord } from "./record.ts";

// The binocular integrated visual field of a printed result's visit (issue 30, core/analytics/binocular.ts: the better
// eye's sensitivity at each point, Nelson-Quigg et al. 2000, Crabb and Viswanathan 2005), found by core's
// visitWithBothEyes as the web's page finds it: the fellow eye's result of the same clinic day among the patient's
// results (the same pattern first, then the nearest in time), and the field of the two. Our choice where the web has no
// counterpart: the fellow is sought among the patient's exported records, so a filter that leaves the fellow eye out
// (--eye, --reliable-only, --pattern) leaves the field out, as it leaves results out of the printed progression and the
// difference plot.

/**
 * The integrated field of r's visit, or null for a result that is not one eye's (Esterman is binocular already).
 * Without a fellow result that day it is "not applicable: not the same day"; the print (core/plots/print-binocular.ts)
 * draws the field only when it applies.
 */
export const visitBinocular = (r: ExportRecord, records: readonly ExportRecord[], timeZone: string): IntegratedFieldOutcome | null =>
  visitWithBothEyes(r, records, (x) => x.result, timeZone)?.field ?? null;
