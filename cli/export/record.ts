import { ageAtTest, analyseResult, type ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import type { Patient } from "../../core/model/patient.ts";

/** One result on its way out: the patient, the measurement it completes, the age on the test day, and its analysis. */
export interface ExportRecord {
  readonly patient: Patient;
  readonly measurement: Measurement;
  readonly result: MeasurementResult;
  /** Completed years on the test day. */
  readonly age: number;
  /** core/analytics on the result; computed on first use (CSV needs none of it), then kept. */
  analysis(): ResultAnalysis;
}

/** The record of a measurement, or null when it has no result yet (scheduled, or still running). */
export function exportRecord(patient: Patient, measurement: Measurement): ExportRecord | null {
  const result = measurement.result;
  if (result === null) return null;
  const age = ageAtTest(patient.birthdate, result.takenAt);
  let analysis: ResultAnalysis | undefined;
  return {
    patient,
    measurement,
    result,
    age,
    analysis: () =>
      (analysis ??= analyseResult({
        pattern: result.pattern,
        eye: result.eye,
        age,
        thresholds: result.thresholds,
        normativeVersion: result.normativeVersion,
        catchTrials: result.catchTrials,
        gazeTracking: result.gazeTracking,
        normValues: result.normValues,
      })),
  };
}

/** The test day as YYYY-MM-DD and the time as HH:MM:SS, in UTC (takenAt is an instant). */
export function takenAtParts(takenAt: string): { date: string; time: string } {
  const iso = new Date(takenAt).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** A safe file-name part: letters, digits, dot, dash and underscore. */
export const fileNamePart = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");

export const eyeCode = (eye: number): "OD" | "OS" | "OU" => (eye === 0 ? "OD" : eye === 1 ? "OS" : "OU");

export function recordFileName(r: ExportRecord, extension: string): string {
  const { date } = takenAtParts(r.result.takenAt);
  return `${fileNamePart(r.patient.id)}_${date}_${eyeCode(r.result.eye)}_${fileNamePart(r.measurement.id)}.${extension}`;
}
