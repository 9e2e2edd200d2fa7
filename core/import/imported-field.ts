import type { Sex } from "../model/enums.ts";
import type { IsoDate } from "../model/ids.ts";
import type { MeasurementResult } from "../model/measurement-result.ts";
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
