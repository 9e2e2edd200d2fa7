import { Schema } from "effect";
import { IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { ImportFormatSchema } from "./result-source.ts";
import { EyeSchema, PatternSchema } from "./enums.ts";

// Importing a clinic's earlier fields (issue 29): files go to the server as they are (DICOM OPV, a FHIR Bundle, a
// visualFields CSV); the server reads them, matches or creates the patients, and stores each file in one transaction.
// The answer says per file and per field what happened, or with dryRun what would happen.

/** Files per results/import call (each is its own transaction; the CLI and the web send a folder in such batches). */
export const IMPORT_FILES_MAX = 100;

export const ImportFileSchema = Schema.Struct({
  /** The file's name as the user chose it (a path relative to what was imported); named in every line about it. */
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024)),
  /** base64 for binary files (DICOM), utf8 for text (FHIR JSON, CSV). */
  encoding: Schema.Literals(["base64", "utf8"]),
  content: Schema.String,
});
export type ImportFile = Schema.Schema.Type<typeof ImportFileSchema>;

export const ImportBodySchema = Schema.Struct({
  files: Schema.Array(ImportFileSchema).check(Schema.isMinLength(1), Schema.isMaxLength(IMPORT_FILES_MAX)),
  /** Say what would happen and write nothing. */
  dryRun: Schema.Boolean,
  /** Importing on a patient's page: every field must be this patient's (matched as any other, then checked). */
  patientId: Schema.optionalKey(Schema.NullOr(IdSchema)),
  /** Issuers of patient IDs (DICOM Issuer of Patient ID, FHIR identifier system) that are the organisation's own,
   * beside its name and its exports' system: an ID from any other issuer is matched by name and birth date instead. */
  issuers: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isMaxLength(256))).check(Schema.isMaxLength(20))),
  /** The IANA time zone in which files that carry no offset from UTC were taken (a perimeter's local time); default the server's. */
  timeZone: Schema.optionalKey(Schema.String),
  /** visualFields CSV: the id column's value -> the patient's unique id (without it the id column is the unique id). */
  csvPatients: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
});
export type ImportBody = Schema.Schema.Type<typeof ImportBodySchema>;

export const ImportActionSchema = Schema.Literals(["imported", "duplicate", "refused"]);
export type ImportAction = Schema.Schema.Type<typeof ImportActionSchema>;

/** How a field found its patient: by Patient ID (with its issuer), by name and birth date, created, or refused. */
export const PatientMatchSchema = Schema.Literals(["id", "name-birthdate", "created"]);
export type PatientMatch = Schema.Schema.Type<typeof PatientMatchSchema>;

export const ImportItemSchema = Schema.Struct({
  /** The field within the file: "row 4", the SOP Instance UID, the Observation's identifier. */
  item: Schema.String,
  action: ImportActionSchema,
  /** Why it was refused (or which result it duplicates); null when imported. */
  reason: Schema.NullOr(Schema.String),
  patient: Schema.NullOr(
    Schema.Struct({ id: Schema.NullOr(IdSchema), name: Schema.String, uniqueId: Schema.String, match: PatientMatchSchema }),
  ),
  /** The stored result (its measurement); null on a dry run, a refusal, or a duplicate of a field not stored as one. */
  measurementId: Schema.NullOr(IdSchema),
  takenAt: Schema.NullOr(IsoDateTimeSchema),
  eye: Schema.NullOr(EyeSchema),
  pattern: Schema.NullOr(PatternSchema),
  /** "Carl Zeiss Meditec HFA3 860 · SITA Standard": the device and strategy as the file names them. */
  device: Schema.NullOr(Schema.String),
});
export type ImportItem = Schema.Schema.Type<typeof ImportItemSchema>;

export const ImportFileReportSchema = Schema.Struct({
  file: Schema.String,
  format: Schema.NullOr(ImportFormatSchema),
  /** refused when the file could not be read or any field was refused (then nothing of it is written); duplicate when
   * every field was there already; imported otherwise. */
  action: ImportActionSchema,
  reason: Schema.NullOr(Schema.String),
  items: Schema.Array(ImportItemSchema),
});
export type ImportFileReport = Schema.Schema.Type<typeof ImportFileReportSchema>;

export const ImportReportSchema = Schema.Struct({ dryRun: Schema.Boolean, files: Schema.Array(ImportFileReportSchema) });
export type ImportReport = Schema.Schema.Type<typeof ImportReportSchema>;
