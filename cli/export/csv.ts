import { infoColumns } from "../../core/analytics/visualfields-csv.ts";
import { catchTrialRate } from "../../core/analytics/reliability.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import type { Pattern, Strategy } from "../../core/model/enums.ts";
import { eyeCode, takenAtParts, type ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// The visualFields CSV layout: id, eye, date, time, age, type, fpr, fnr, fl, duration, l1..ln (one row per test,
// sensitivities in the pattern's location order, which is visualFields' locmap order; see core/analytics/patterns.ts).
// What we put in each column:
//   id       the patient's id (the server's opaque id: stable, and free of names)
//   eye      OD right, OS left, OU binocular (Esterman)
//   date     test day, time HH:MM:SS, both UTC
//   age      completed years on the test day
//   type     the strategy (visualFields' own data use the column for the subject group, e.g. ctr / pwg)
//   fpr/fnr/fl  catch-trial error rates (errors / presentations; 0 when none were presented)
//   duration HH:MM:SS of examinationTimeInSeconds
//   l1..ln   thresholds in dB as stored

const strategyNames: Record<Strategy, string> = { 0: "undefined", 1: "normal", 2: "sors", 3: "ds", 4: "supra", 5: "1lt", 999: "sors-screening" };

export function visualFieldsHeader(pattern: Pattern): string {
  const n = getPattern(pattern).points.length;
  return [...infoColumns, ...Array.from({ length: n }, (_, i) => `l${i + 1}`)].join(",");
}

/** RFC 4180 quoting for the one free-text column (ids never need it in practice). */
const cell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function hhmmss(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = (v: number) => String(v).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function visualFieldsRow(r: ExportRecord): string {
  const { date, time } = takenAtParts(r.result.takenAt);
  const ct = r.result.catchTrials;
  const rate = (c: { errors: number; presentations: number }) => String(catchTrialRate(c) ?? 0);
  return [
    cell(r.patient.id), eyeCode(r.result.eye), date, time, String(r.age), strategyNames[r.result.strategy] ?? "undefined",
    rate(ct.falsePositive), rate(ct.falseNegative), rate(ct.blindSpot), hhmmss(r.result.examinationTimeInSeconds),
    ...r.result.thresholds.map(String),
  ].join(",");
}

/** One pattern per file: the header fixes the number of l columns. */
export function csvWriter(sink: TextSink, pattern: Pattern): ExportWriter {
  const expected = getPattern(pattern).points.length;
  let started = false;
  return {
    async write(r) {
      if (r.result.thresholds.length !== expected)
        throw new Error(`result ${r.test.id}: ${r.result.thresholds.length} thresholds, the ${getPattern(pattern).label} header has ${expected}`);
      if (!started) {
        started = true;
        await sink.write(visualFieldsHeader(pattern) + "\n");
      }
      await sink.write(visualFieldsRow(r) + "\n");
    },
    async end() {
      if (!started) await sink.write(visualFieldsHeader(pattern) + "\n");
      await sink.close();
    },
  };
}
