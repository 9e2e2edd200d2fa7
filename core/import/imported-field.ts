import { Showtime, StimulusSize, type Sex } from "../model/enums.ts";
import type { IsoDate } from "../model/ids.ts";
import type { CatchTrials, MeasurementResult } from "../model/measurement-result.ts";
import type { ImportedSource } from "../model/result-source.ts";

// What every reader (OPV, FHIR, CSV) makes of a field in a file: whose it is, as the file says it, and the result as
// Isopter stores it. The server matches the patient and stores the result; the readers know nothing of the database.

/** The patient as a file identifies them. Any part may be missing; matching says what is enough. */
export interface PatientIdentity {
  /** The file's Patient ID (DICOM PatientID, FHIR Patient.identifier.value, a CSV id mapped to a unique id). */
  readonly id: string | null;
  /** Who issued the ID (DICOM IssuerOfPatientID, FHIR identifier.system); null when the file does not say. */
  readonly issuer: string | null;
  /** As Isopter writes names: given names, then the family name ("Felix Wagner"). */
  readonly name: string | null;
  readonly birthdate: IsoDate | null;
  readonly sex: Sex | null;
}

export type ImportedResult = Omit<MeasurementResult, "measurementId" | "patientId"> & { readonly source: ImportedSource };

export interface ImportedField {
  /** The field within its file, as a reader names it: "row 4", "SOP Instance 1.2.3...". */
  readonly item: string;
  readonly patient: PatientIdentity;
  readonly result: ImportedResult;
}

/** A field that cannot be imported, and why (a line of the report). */
export interface RefusedField {
  readonly item: string;
  readonly reason: string;
}

/** A file as one reader saw it: its fields, those it refused, or nothing at all (the reason says why). */
export type FileReading =
  | { readonly ok: true; readonly fields: readonly ImportedField[]; readonly refused: readonly RefusedField[] }
  | { readonly ok: false; readonly reason: string };

export const unreadable = (reason: string): FileReading => ({ ok: false, reason });

/** What a file measured; the rest of a stored result is what no file carries (see importedResult). */
export type MeasuredField = Pick<ImportedResult, "takenAt" | "eye" | "pattern" | "strategy" | "thresholds" | "catchTrials"> &
  Partial<
    Pick<
      ImportedResult,
      | "stimulusSize"
      | "stimuliShowtime"
      | "presentations"
      | "examinationTimeInSeconds"
      | "maxIntensity"
      | "meanSensitivity"
      | "background"
      | "estermanScore"
      | "normativeVersion"
    >
  >;

/** A catch-trial rate from its tally, to 2 decimals; 0 when none were presented. */
export const catchTrialRate = (t: { errors: number; presentations: number }) =>
  t.presentations > 0 ? Math.round((100 * t.errors) / t.presentations) / 100 : 0;

/**
 * An imported result from what its file measured, the same for every reader: what files do not carry gets one value
 * (Goldmann III, 200 ms, the 31.5 asb background, no interval, gaze, calibration or SORS stage), the rates follow the
 * tallies, the mean sensitivity is the file's or the mean of the tested locations (a value below 0 counted as 0), and
 * the indices the server computes (defects, MD, sLV, VFI: scoring.ts) start empty.
 */
export function importedResult(m: MeasuredField, blindSpots: readonly number[], source: ImportedSource): ImportedResult {
  const ct: CatchTrials = m.catchTrials;
  const tested = m.thresholds.filter((_, i) => !blindSpots.includes(i));
  return {
    takenAt: m.takenAt,
    eye: m.eye,
    pattern: m.pattern,
    strategy: m.strategy,
    sorsStage: null,
    stimulusSize: m.stimulusSize ?? StimulusSize.III,
    stimuliShowtime: m.stimuliShowtime ?? Showtime.Ms200,
    stimuliInterval: 0,
    meanUpdateTime: 0,
    presentations: m.presentations ?? 0,
    examinationTimeInSeconds: m.examinationTimeInSeconds ?? 0,
    maxIntensity: m.maxIntensity ?? 0,
    thresholds: m.thresholds,
    defects: [],
    normValues: null,
    meanSensitivity: m.meanSensitivity ?? tested.reduce((sum, t) => sum + Math.max(0, t), 0) / Math.max(1, tested.length),
    meanDefect: null,
    squareRootLossVariance: null,
    vfi: null,
    falseNegatives: catchTrialRate(ct.falseNegative),
    falsePositives: catchTrialRate(ct.falsePositive),
    fixationLosses: catchTrialRate(ct.blindSpot),
    catchTrials: ct,
    gazeTracking: null,
    estermanScore: m.estermanScore ?? null,
    reliabilityScore: null,
    normativeVersion: m.normativeVersion ?? null,
    gazeCalibration: null,
    background: m.background ?? 31.5,
    deviceAlias: null,
    source,
  };
}
