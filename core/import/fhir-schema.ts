import { Schema } from "effect";

// The subset of FHIR R4 our export writes, as effect Schemas: what a receiver needs to parse it (required elements,
// value sets of status and gender, the id / dateTime / reference formats of the R4 specification). Decoding with
// onExcessProperty "error" also catches misspelt element names.
// It lives in core so that the server's importer may use it; it stays exactly the export's shape (the export's tests
// rely on its strictness). The importer (core/import/fhir.ts) reads other systems' Bundles with R4's own, looser rules.

/** R4 id: [A-Za-z0-9\-\.]{1,64}. */
const Id = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9\-.]{1,64}$/));
/** R4 dateTime with time and zone (what we write). */
const DateTime = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/));
const DateOnly = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/));
const Uri = Schema.String.check(Schema.isPattern(/^(https?:\/\/|urn:)\S+$/));
const UuidUrn = Schema.String.check(Schema.isPattern(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/));

const NonEmptyArray = <S extends Schema.Top>(item: S) => Schema.Array(item).check(Schema.isMinLength(1));

export const CodingSchema = Schema.Struct({ system: Uri, code: Schema.NonEmptyString, display: Schema.optionalKey(Schema.String) });
export const CodeableConceptSchema = Schema.Struct({ coding: NonEmptyArray(CodingSchema), text: Schema.optionalKey(Schema.String) });
export const ReferenceSchema = Schema.Struct({ reference: UuidUrn });
export const IdentifierSchema = Schema.Struct({ system: Uri, value: Schema.NonEmptyString });
export const QuantitySchema = Schema.Struct({ value: Schema.Finite, unit: Schema.String, system: Uri, code: Schema.NonEmptyString });

const Meta = Schema.Struct({ profile: NonEmptyArray(Uri) });

/** R4's value sets (administrative-gender, observation-status, diagnostic-report-status), for the importer too. */
export const AdministrativeGender = Schema.Literals(["male", "female", "other", "unknown"]);
export const ObservationStatus = Schema.Literals([
  "registered",
  "preliminary",
  "final",
  "amended",
  "corrected",
  "cancelled",
  "entered-in-error",
  "unknown",
]);
export const DiagnosticReportStatus = Schema.Literals([
  "registered",
  "partial",
  "preliminary",
  "final",
  "amended",
  "corrected",
  "appended",
  "cancelled",
  "entered-in-error",
  "unknown",
]);

export const PatientResourceSchema = Schema.Struct({
  resourceType: Schema.Literal("Patient"),
  id: Schema.optionalKey(Id), // a transaction matches patients by identifier (conditional update): no id there
  identifier: Schema.Array(
    Schema.Struct({ use: Schema.Literal("usual"), type: CodeableConceptSchema, system: Uri, value: Schema.NonEmptyString }),
  ),
  name: Schema.Array(Schema.Struct({ text: Schema.String })),
  gender: AdministrativeGender,
  birthDate: DateOnly,
});

export const RatioSchema = Schema.Struct({
  numerator: Schema.Struct({ value: Schema.Finite }),
  denominator: Schema.Struct({ value: Schema.Finite }),
});

/** R4 SampledData as the sensitivity Observation writes it: values in the pattern's location order, no interval. */
export const SampledDataSchema = Schema.Struct({
  origin: QuantitySchema,
  period: Schema.Finite,
  dimensions: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  data: Schema.String.check(Schema.isPattern(/^(-?\d+(\.\d+)?|E|L|U)( (-?\d+(\.\d+)?|E|L|U))*$/)),
});

export const ObservationSchema = Schema.Struct({
  resourceType: Schema.Literal("Observation"),
  id: Id,
  meta: Schema.optionalKey(Meta),
  status: ObservationStatus,
  category: Schema.Array(CodeableConceptSchema),
  code: CodeableConceptSchema,
  subject: ReferenceSchema,
  effectiveDateTime: DateTime,
  valueQuantity: Schema.optionalKey(QuantitySchema),
  valueRatio: Schema.optionalKey(RatioSchema),
  valueCodeableConcept: Schema.optionalKey(CodeableConceptSchema),
  interpretation: Schema.optionalKey(Schema.Array(CodeableConceptSchema)),
  method: Schema.optionalKey(Schema.Struct({ text: Schema.NonEmptyString })),
  /** The sensitivities per location (Isopter's own Observation, core/import/fhir.ts sensitivityValue). */
  valueSampledData: Schema.optionalKey(SampledDataSchema),
  component: Schema.optionalKey(
    NonEmptyArray(
      Schema.Struct({
        code: CodeableConceptSchema,
        valueQuantity: Schema.optionalKey(QuantitySchema),
        valueCodeableConcept: Schema.optionalKey(CodeableConceptSchema),
        valueInteger: Schema.optionalKey(Schema.Int),
        /** A band (the VFI trend's projection: its 95 % confidence band). */
        valueRange: Schema.optionalKey(Schema.Struct({ low: QuantitySchema, high: QuantitySchema })),
      }),
    ),
  ),
  bodySite: CodeableConceptSchema,
  /** What the value was read from (the glaucoma stages: the result's sensitivity, MD and PSD Observations). */
  derivedFrom: Schema.optionalKey(NonEmptyArray(ReferenceSchema)),
  /** Why there is no value (a progression criterion that does not apply: "not-applicable", with the reason). */
  dataAbsentReason: Schema.optionalKey(CodeableConceptSchema),
  /** The Observations a summary groups (the progression reading: one per criterion). */
  hasMember: Schema.optionalKey(NonEmptyArray(ReferenceSchema)),
});
export type Observation = Schema.Schema.Type<typeof ObservationSchema>;

export const AttachmentSchema = Schema.Struct({
  contentType: Schema.Literal("application/pdf"),
  data: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9+/]+=*$/)),
  title: Schema.String,
});

export const DiagnosticReportSchema = Schema.Struct({
  resourceType: Schema.Literal("DiagnosticReport"),
  id: Id,
  meta: Meta,
  // The result's id, and a worklist order's accession number (typed ACSN) and requested procedure ID.
  identifier: Schema.Array(Schema.Struct({ ...IdentifierSchema.fields, type: Schema.optionalKey(CodeableConceptSchema) })),
  status: DiagnosticReportStatus,
  category: NonEmptyArray(CodeableConceptSchema),
  code: CodeableConceptSchema,
  subject: ReferenceSchema,
  effectiveDateTime: DateTime,
  issued: DateTime,
  result: Schema.Array(ReferenceSchema),
  conclusion: Schema.optionalKey(Schema.String),
  presentedForm: Schema.optionalKey(NonEmptyArray(AttachmentSchema)),
});
export type DiagnosticReport = Schema.Schema.Type<typeof DiagnosticReportSchema>;

export const BundleEntrySchema = Schema.Struct({
  fullUrl: UuidUrn,
  resource: Schema.Union([PatientResourceSchema, DiagnosticReportSchema, ObservationSchema]),
  request: Schema.optionalKey(Schema.Struct({ method: Schema.Literal("PUT"), url: Schema.NonEmptyString })),
});

export const BundleSchema = Schema.Struct({
  resourceType: Schema.Literal("Bundle"),
  type: Schema.Literals([
    "document",
    "message",
    "transaction",
    "transaction-response",
    "batch",
    "batch-response",
    "history",
    "searchset",
    "collection",
  ]),
  timestamp: DateTime,
  entry: Schema.Array(BundleEntrySchema),
});
export type Bundle = Schema.Schema.Type<typeof BundleSchema>;
