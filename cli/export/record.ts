import { ageAtTest, type ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { analyseStoredResult, resultValid } from "../../core/analytics/stored-result.ts";
import { eyeCodes, type Eye } from "../../core/model/enums.ts";
import type { Examination } from "../../core/model/examination.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import type { Patient } from "../../core/model/patient.ts";
import { storedFromExamination, storedFromMeasurement, type StoredPerimetryTest } from "../../core/model/perimetry-test.ts";

/** What the server stored for a test: a measurement (measurement variant) or a perimetry examination (appointment variant). */
export type StoredTest =
  | { readonly kind: "measurement"; readonly measurement: Measurement }
  | { readonly kind: "examination"; readonly examination: Examination };

/**
 * One result on its way out: the patient, the perimetry test it completes (core/model/perimetry-test.ts: a measurement
 * or a perimetry examination read the same way, with the same defaults as the web), what was stored, the age on the
 * test day, and its analysis.
 */
export interface ExportRecord {
  readonly patient: Patient;
  readonly test: StoredPerimetryTest & { readonly result: MeasurementResult };
  readonly stored: StoredTest;
  readonly result: MeasurementResult;
  /** Completed years on the test day. */
  readonly age: number;
  /**
   * Whether the result has a value for every location of its pattern (core/analytics/stored-result.ts, the web's rule):
   * only a valid result is analysed, so the export leaves the others out and counts them (runExport).
   */
  readonly valid: boolean;
  /** core/analytics on the result; computed on first use (CSV needs none of it), then kept. Throws for an invalid result. */
  analysis(): ResultAnalysis;
}

const hasResult = (t: StoredPerimetryTest | null): t is StoredPerimetryTest & { readonly result: MeasurementResult } =>
  t !== null && t.result !== null;

function recordOf(patient: Patient, test: StoredPerimetryTest | null, stored: StoredTest): ExportRecord | null {
  if (!hasResult(test)) return null;
  const result = test.result;
  const age = ageAtTest(patient.birthdate, result.takenAt);
  let analysis: ResultAnalysis | undefined;
  return {
    patient,
    test,
    stored,
    result,
    age,
    valid: resultValid(result),
    analysis: () => {
      analysis ??= analyseStoredResult(result, age) ?? undefined;
      if (analysis === undefined)
        throw new Error(`result ${test.id} cannot be analysed: it lacks a value for some location of its pattern`);
      return analysis;
    },
  };
}

/** The record of a measurement, or null when it has no result yet (scheduled, or still running). */
export const exportRecord = (patient: Patient, measurement: Measurement): ExportRecord | null =>
  recordOf(patient, storedFromMeasurement(measurement), { kind: "measurement", measurement });

/** The record of a perimetry examination, or null when it is not taken (no perimetry result) or not perimetry. */
export const examinationRecord = (patient: Patient, examination: Examination): ExportRecord | null =>
  recordOf(patient, storedFromExamination(examination), { kind: "examination", examination });

/**
 * The printed page of a result (pdf/report.ts pagePrinter) for the formats that carry it (DICOM's Encapsulated PDF,
 * FHIR's presentedForm), given the patient's records: the page's visit may have its fellow eye among them.
 */
export type PageRenderer = (r: ExportRecord, patientRecords: readonly ExportRecord[]) => Promise<Uint8Array>;

/** A patient's records oldest first; equal instants by id, so every path gives the same order. */
export const byTakenAt = (records: ExportRecord[]): ExportRecord[] =>
  records.sort(
    (a, b) => Date.parse(a.result.takenAt) - Date.parse(b.result.takenAt) || (a.test.id < b.test.id ? -1 : a.test.id > b.test.id ? 1 : 0),
  );

/** The test day as YYYY-MM-DD and the time as HH:MM:SS, in UTC (takenAt is an instant). */
export function takenAtParts(takenAt: string): { date: string; time: string } {
  const iso = new Date(takenAt).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** A safe file-name part: letters, digits, dot, dash and underscore. */
export const fileNamePart = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");

export const eyeCode = (eye: Eye): "OD" | "OS" | "OU" => eyeCodes[eye];

export function recordFileName(r: ExportRecord, extension: string): string {
  const { date } = takenAtParts(r.result.takenAt);
  return `${fileNamePart(r.patient.id)}_${date}_${eyeCode(r.result.eye)}_${fileNamePart(r.test.id)}.${extension}`;
}
