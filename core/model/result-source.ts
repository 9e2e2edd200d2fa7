import { Schema } from "effect";
import { IsoDateTimeSchema } from "./ids.ts";

// Where a stored perimetry result came from (issue 29). A result without a source was taken on one of the clinic's
// Isopter headsets; an imported one keeps what its file said about the perimeter that took it, its key (so the same file
// imported again is recognised) and, beside Isopter's own analysis, the device's own indices as the file gave them.

export const ImportFormatSchema = Schema.Literals(["dicom-opv", "fhir", "visualfields-csv"]);
export type ImportFormat = Schema.Schema.Type<typeof ImportFormatSchema>;

const NullableNumber = Schema.NullOr(Schema.Finite);
const PerLocation = Schema.NullOr(Schema.Array(NullableNumber));

/**
 * The perimeter's own analysis as the file carried it, per location in the pattern's location order (null where the
 * file gave no value, e.g. a location the device does not analyse). Probabilities are the file's, in percent (DICOM's
 * unit: "p < 5 %" is 5, 100 where within normal limits).
 */
export const DeviceIndicesSchema = Schema.Struct({
  /** The device's normative data set as named in the file (DataSetName and DataSetVersion). */
  normsName: Schema.NullOr(Schema.String),
  md: NullableNumber,
  mdProbability: NullableNumber,
  psd: NullableNumber,
  psdProbability: NullableNumber,
  vfi: NullableNumber,
  /** The GHT outcome as the file codes it (its code meaning, e.g. "Outside normal limits"). */
  ght: Schema.NullOr(Schema.String),
  td: PerLocation,
  tdProbability: PerLocation,
  pd: PerLocation,
  pdProbability: PerLocation,
});
export type DeviceIndices = Schema.Schema.Type<typeof DeviceIndicesSchema>;

export const ImportedSourceSchema = Schema.Struct({
  kind: Schema.Literal("imported"),
  format: ImportFormatSchema,
  /**
   * What identifies the field wherever it travels: the SOP Instance UID, the FHIR resource's identifier
   * (system|value), or for a CSV row its id, eye, date and time. The organisation holds each key once.
   */
  key: Schema.String,
  manufacturer: Schema.NullOr(Schema.String),
  model: Schema.NullOr(Schema.String),
  serial: Schema.NullOr(Schema.String),
  software: Schema.NullOr(Schema.String),
  /** The pattern and the strategy as the file names them ("SITA Standard", "Visual Field 24-2 Test Pattern"). */
  patternName: Schema.NullOr(Schema.String),
  strategyName: Schema.NullOr(Schema.String),
  deviceIndices: Schema.NullOr(DeviceIndicesSchema),
  /** The order the field was taken for, where the file names it (DICOM Accession Number, Requested Procedure ID). */
  accessionNumber: Schema.NullOr(Schema.String),
  requestedProcedureId: Schema.NullOr(Schema.String),
  fileName: Schema.NullOr(Schema.String),
  importedAt: IsoDateTimeSchema,
});
export type ImportedSource = Schema.Schema.Type<typeof ImportedSourceSchema>;

/** "Carl Zeiss Meditec HFA3 860": the perimeter as a reader names it (manufacturer and model; either may be missing). */
export const sourceDeviceName = (s: Pick<ImportedSource, "manufacturer" | "model">): string =>
  [s.manufacturer, s.model].filter((p): p is string => p !== null && p.trim() !== "").join(" ") || "unknown perimeter";
