import { csvField } from "../../core/analytics/csv-text.ts";
import { csvLocationValue, csvStrategyNames, infoColumns } from "../../core/analytics/visualfields-csv.ts";
import { catchTrialRate } from "../../core/analytics/reliability.ts";
import { isScreeningResult } from "../../core/analytics/seen.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { STAGE_COLUMNS, stageCodes } from "../../core/analytics/stages/index.ts";
import type { Pattern } from "../../core/model/enums.ts";
import { eyeCode, takenAtParts, type ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// The visualFields CSV layout (core/analytics/visualfields-csv.ts says what each column holds and how "not seen" is
// written): one row per test, values in the pattern's location order, which is visualFields' locmap order.
// What we put in the columns visualFields leaves open:
//   id       the patient's id (the server's opaque id: stable, and free of names)
//   date     test day, time HH:MM:SS, both UTC
//   age      completed years on the test day
//   fpr/fnr/fl  catch-trial error rates (errors / presentations; 0 when none were presented)
//   duration HH:MM:SS of examinationTimeInSeconds
// With --stages, four named columns follow l1..ln (issue 30): hpa (early, moderate, severe), gss2 (0, borderline,
// 1-5), agis (0-20), cigts (0-20, 2 decimals), NA where a method does not apply. Our reader reads past them; R's
// visualFields would take them for locations, so they are not written by default.

export function visualFieldsHeader(pattern: Pattern, options: CsvOptions = {}): string {
  const n = getPattern(pattern).points.length;
  return [...infoColumns, ...Array.from({ length: n }, (_, i) => `l${i + 1}`), ...(options.stages ? STAGE_COLUMNS : [])].join(",");
}

export interface CsvOptions {
  /** Append the glaucoma stages after l1..ln (`--stages`). */
  readonly stages?: boolean;
}

/** The stage cells of a record: R's NA where a method does not apply. */
function stageCells(r: ExportRecord): string[] {
  const c = stageCodes(r.analysis().stages);
  return [c.hpa ?? "NA", c.gss2 ?? "NA", c.agis === null ? "NA" : String(c.agis), c.cigts === null ? "NA" : c.cigts.toFixed(2)];
}

export function hhmmss(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = (v: number) => String(v).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function visualFieldsRow(r: ExportRecord, options: CsvOptions = {}): string {
  const { date, time } = takenAtParts(r.result.takenAt);
  const ct = r.result.catchTrials;
  const rate = (c: { errors: number; presentations: number }) => String(catchTrialRate(c) ?? 0);
  const screening = isScreeningResult(r.result);
  return [
    csvField(r.patient.id),
    eyeCode(r.result.eye),
    date,
    time,
    String(r.age),
    csvStrategyNames[r.result.strategy] ?? "undefined",
    rate(ct.falsePositive),
    rate(ct.falseNegative),
    rate(ct.blindSpot),
    hhmmss(r.result.examinationTimeInSeconds),
    ...r.result.thresholds.map((t) => String(csvLocationValue(t, screening))),
    ...(options.stages ? stageCells(r) : []),
  ].join(",");
}

/** One pattern per file: the header fixes the number of l columns. */
export function csvWriter(sink: TextSink, pattern: Pattern, options: CsvOptions = {}): ExportWriter {
  const expected = getPattern(pattern).points.length;
  let started = false;
  return {
    async write(r) {
      if (r.result.thresholds.length !== expected)
        throw new Error(
          `result ${r.test.id}: ${r.result.thresholds.length} thresholds, the ${getPattern(pattern).label} header has ${expected}`,
        );
      if (!started) {
        started = true;
        await sink.write(visualFieldsHeader(pattern, options) + "\n");
      }
      await sink.write(visualFieldsRow(r, options) + "\n");
    },
    async end() {
      if (!started) await sink.write(visualFieldsHeader(pattern, options) + "\n");
      await sink.close();
    },
  };
}
