import { Result, Schema } from "effect";
import { getPattern } from "../analytics/patterns.ts";
import { isScreeningResult } from "../analytics/seen.ts";
import { type Code, ghtAnalysis, ISOPTER_SCHEME, patternCode, strategyCode, visualFieldIndex } from "../dicom/codes.ts";
import { decode } from "../model/decode.ts";
import { AdministrativeGender, DiagnosticReportStatus, ObservationStatus } from "./fhir-schema.ts";
import { Eye, eyeCodes, Pattern, patternLabel, Sex, Strategy, strategyCodes } from "../model/enums.ts";
import type { IsoDate } from "../model/ids.ts";
import type { DeviceIndices } from "../model/result-source.ts";
import { type FileReading, type ImportedField, importedResult, type RefusedField, unreadable } from "./imported-field.ts";

// An FHIR R4 Bundle of the HL7 Eye Care IG's visual-field resources as Isopter results (issue 29: "FHIR: a Bundle of the
// Eye Care IG's visual-field resources (Isopter's own export round-trips)"). What is read:
// - every DiagnosticReport of the visual field (meta.profile diagnostic-report-visual-field, or code SNOMED 103752008
//   Perimetry or LOINC 28629-4) is one field; its identifier (system|value) is the key; other resources are read only
//   where such a report references them (subject, result, an Observation's device);
// - the patient from the report's subject: identifier value and system (the MR-typed one first), name ("Given Family",
//   or its text), birthDate, gender;
// - the eye from the IG's laterality extension, else the Observations' bodySite (SNOMED eye structures), else the
//   "OD" / "OS" / "OU" of the report's code.text;
// - catch trials (the IG's code system: fixation loss 400204, false positive 400205, false negative 400206 as ratios;
//   400202/400203 percentages counted as errors of 100, as opv.ts counts DICOM's estimates), the test duration (SNOMED
//   252129004), and the perimeter's own indices (MD SNOMED 422859007, PSD 421362004, VFI DCM 111852, GHT DCM 111855,
//   the normative database from Observation.method, a p-value from interpretation "p < 5 %") as the device's;
// - the sensitivities per location, the pattern and the strategy. The IG has no element for a threshold per location:
//   Isopter's own are one Observation in Isopter's code system (fhirSensitivityCode, written by sensitivityValue below):
//   a SampledData in the pattern's location order, in dB from origin 0 ("L", below the lower limit, is not seen), with
//   the pattern (CID 4250 or our code) and the strategy (CID 4251 or our code) as components.
// Choices of ours where the IG or the file leaves a gap:
// - a report without sensitivities per location is refused: a field Isopter cannot analyse has no place in a series;
// - the pattern without that Observation: a DICOM CID 4250 coding on the report's code, else a pattern's name as a word
//   of its code.text ("Perimetry 24-2 OD"); another pattern (a 24-2C, a 60-4) is refused as unknown;
// - a date without a time of day is taken at noon UTC (the same calendar day in every clinic's zone);
// - manufacturer and model from a Device an Observation references; a report whose sensitivities are coded in Isopter's
//   own code system names "Isopter" as the manufacturer (only Isopter writes that system);
// - validation is R4's (required elements, value sets of status and gender, the types and formats of values), not the
//   strict shape of Isopter's export (fhir-schema.ts): a valid Bundle from another system reads. Extra elements are
//   ignored. A resource of the kinds read that fails it refuses the report that needs it, naming the resource.

/** The IG's visual-field report and observation profiles as published (0.1.0) and in later drafts. */
const REPORT_PROFILE = /\/StructureDefinition\/diagnostic-report-visual-field$/;
const SNOMED = "http://snomed.info/sct";
const LOINC = "http://loinc.org";
const UCUM = "http://unitsofmeasure.org";
const DICOM = "http://dicom.nema.org/resources/ontology/DCM";
/** The IG's code system: eyecare (0.1.0) or ophthalmology (later drafts) in its URL. */
const IG_CODES = /\/CodeSystem\/visual-field-observations$/;

/**
 * Isopter's own code system, the same in every export: `urn:oid:` and the DICOM UID of the name
 * "isopter:code-system:observations" (cli/export/fhir-resources.ts `systems.isopter`, which derives it; a test holds the
 * two equal: core has no SHA-1).
 */
export const ISOPTER_FHIR_SYSTEM = "urn:oid:2.25.174504736622900230498753553067945435931";

/** A DICOM code (core/dicom/codes.ts) as an FHIR Coding: DCM, SNOMED CT, or our 99ISOPTER codes in our system. */
export const fhirCoding = (c: Code): { system: string; code: string; display: string } => ({
  system: c.CodingSchemeDesignator === "SCT" ? SNOMED : c.CodingSchemeDesignator === ISOPTER_SCHEME ? ISOPTER_FHIR_SYSTEM : DICOM,
  code: c.CodeValue,
  display: c.CodeMeaning,
});

/** The code of the Observation that carries a result's sensitivities per location (Isopter's code system). */
export const fhirSensitivityCode = {
  system: ISOPTER_FHIR_SYSTEM,
  code: "sensitivity-per-location",
  display: "Sensitivity per location, in the test pattern's location order",
} as const;
const componentCodes = {
  pattern: { system: ISOPTER_FHIR_SYSTEM, code: "test-pattern", display: "Test pattern" },
  strategy: { system: ISOPTER_FHIR_SYSTEM, code: "test-strategy", display: "Test strategy" },
  presentations: { system: ISOPTER_FHIR_SYSTEM, code: "stimuli-presented", display: "Stimuli presented" },
} as const;

const decimal = (v: number) => String(Math.round(v * 1e4) / 1e4);

/**
 * The value members of a result's sensitivity Observation (the export's ObservationDefinition.value; code
 * fhirSensitivityCode, not profiled: the IG's value set has no such code): the thresholds as stored, in the pattern's
 * location order (blind-spot locations included), and the pattern, strategy and stimuli presented as components.
 */
export function sensitivityValue(r: {
  readonly pattern: Pattern;
  readonly strategy: Strategy;
  readonly thresholds: readonly number[];
  readonly presentations: number;
}): Record<string, unknown> {
  return {
    valueSampledData: {
      origin: { value: 0, unit: "dB", system: UCUM, code: "dB" },
      period: 0, // locations, not times: no interval between them
      dimensions: 1,
      data: r.thresholds.map(decimal).join(" "),
    },
    component: [
      {
        code: { coding: [componentCodes.pattern], text: componentCodes.pattern.display },
        valueCodeableConcept: { coding: [fhirCoding(patternCode[r.pattern])], text: patternLabel[r.pattern] },
      },
      {
        code: { coding: [componentCodes.strategy], text: componentCodes.strategy.display },
        valueCodeableConcept: { coding: [fhirCoding(strategyCode[r.strategy])], text: strategyCodes[r.strategy].name },
      },
      {
        code: { coding: [componentCodes.presentations], text: componentCodes.presentations.display },
        valueInteger: Math.round(r.presentations),
      },
    ],
  };
}

// ---- R4 as far as the reader reads it: required elements, value sets, types and formats (extra elements ignored) ----

const Str = Schema.String;
const opt = Schema.optionalKey;
/** R4 id. */
const Id = Str.check(Schema.isPattern(/^[A-Za-z0-9\-.]{1,64}$/));
/** R4 dateTime: a year, year-month, date, or date and time with seconds and a zone. */
const DateTime = Str.check(
  Schema.isPattern(
    /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}))?)?)?$/,
  ),
);
const DateOnly = Str.check(Schema.isPattern(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/));
const Coding = Schema.Struct({ system: opt(Str), code: opt(Str), display: opt(Str) });
const CodeableConcept = Schema.Struct({ coding: opt(Schema.Array(Coding)), text: opt(Str) });
const Reference = Schema.Struct({ reference: opt(Str), display: opt(Str) });
const Identifier = Schema.Struct({ use: opt(Str), type: opt(CodeableConcept), system: opt(Str), value: opt(Str) });
const Quantity = Schema.Struct({ value: opt(Schema.Finite), unit: opt(Str), system: opt(Str), code: opt(Str), comparator: opt(Str) });
const Ratio = Schema.Struct({ numerator: opt(Quantity), denominator: opt(Quantity) });
const Period = Schema.Struct({ start: opt(DateTime), end: opt(DateTime) });
const Extension = Schema.Struct({ url: Str, valueCodeableConcept: opt(CodeableConcept) });
const SampledData = Schema.Struct({
  origin: Quantity,
  period: Schema.Finite,
  factor: opt(Schema.Finite),
  lowerLimit: opt(Schema.Finite),
  upperLimit: opt(Schema.Finite),
  dimensions: Schema.Int.check(Schema.isGreaterThan(0)),
  data: opt(Str.check(Schema.isPattern(/^\s*((-?\d+(\.\d+)?([eE][+-]?\d+)?|E|U|L)(\s+|$))*$/))),
});
const Component = Schema.Struct({
  code: CodeableConcept,
  valueQuantity: opt(Quantity),
  valueCodeableConcept: opt(CodeableConcept),
  valueInteger: opt(Schema.Int),
  valueString: opt(Str),
});

const PatientResource = Schema.Struct({
  resourceType: Schema.Literal("Patient"),
  id: opt(Id),
  identifier: opt(Schema.Array(Identifier)),
  name: opt(Schema.Array(Schema.Struct({ use: opt(Str), text: opt(Str), family: opt(Str), given: opt(Schema.Array(Str)) }))),
  gender: opt(AdministrativeGender),
  birthDate: opt(DateOnly),
});
type PatientResource = Schema.Schema.Type<typeof PatientResource>;

const ObservationResource = Schema.Struct({
  resourceType: Schema.Literal("Observation"),
  id: opt(Id),
  extension: opt(Schema.Array(Extension)),
  status: ObservationStatus,
  code: CodeableConcept,
  subject: opt(Reference),
  effectiveDateTime: opt(DateTime),
  effectivePeriod: opt(Period),
  valueQuantity: opt(Quantity),
  valueRatio: opt(Ratio),
  valueCodeableConcept: opt(CodeableConcept),
  valueInteger: opt(Schema.Int),
  valueSampledData: opt(SampledData),
  interpretation: opt(Schema.Array(CodeableConcept)),
  method: opt(CodeableConcept),
  bodySite: opt(CodeableConcept),
  device: opt(Reference),
  component: opt(Schema.Array(Component)),
});
type ObservationResource = Schema.Schema.Type<typeof ObservationResource>;

const ReportResource = Schema.Struct({
  resourceType: Schema.Literal("DiagnosticReport"),
  id: opt(Id),
  meta: opt(Schema.Struct({ profile: opt(Schema.Array(Str)) })),
  extension: opt(Schema.Array(Extension)),
  identifier: opt(Schema.Array(Identifier)),
  status: DiagnosticReportStatus,
  code: CodeableConcept,
  subject: opt(Reference),
  effectiveDateTime: opt(DateTime),
  effectivePeriod: opt(Period),
  result: opt(Schema.Array(Reference)),
});

const DeviceResource = Schema.Struct({
  resourceType: Schema.Literal("Device"),
  id: opt(Id),
  manufacturer: opt(Str),
  deviceName: opt(Schema.Array(Schema.Struct({ name: Str, type: Str }))),
  modelNumber: opt(Str),
  serialNumber: opt(Str),
  version: opt(Schema.Array(Schema.Struct({ value: Str }))),
});
type DeviceResource = Schema.Schema.Type<typeof DeviceResource>;

const schemas = {
  Patient: PatientResource,
  Observation: ObservationResource,
  DiagnosticReport: ReportResource,
  Device: DeviceResource,
} as const;
type Kind = keyof typeof schemas;
type ResourceOf<K extends Kind> = Schema.Schema.Type<(typeof schemas)[K]>;

const bundleTypes = ["collection", "transaction", "batch", "searchset", "document"];

// ---- the bundle's entries and references ----

interface Entry {
  /** "entry 3" (1-based, the bundle's order). */
  readonly ordinal: number;
  readonly fullUrl: string | null;
  readonly resource: Record<string, unknown>;
  readonly type: string;
  /** "DiagnosticReport/abc", or "entry 3 (DiagnosticReport)" for a resource without an id. */
  readonly name: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

class Bundle {
  private readonly byUrl = new Map<string, Entry>();
  private readonly decoded = new Map<Entry, Result.Result<unknown, string>>();
  constructor(readonly entries: readonly Entry[]) {
    for (const e of entries) {
      if (e.fullUrl !== null) this.byUrl.set(e.fullUrl, e);
      const id = e.resource.id;
      if (typeof id === "string") this.byUrl.set(`${e.type}/${id}`, e);
      // A server's absolute fullUrl (https://host/fhir/Patient/1) answers a relative reference (Patient/1) too.
      const tail = e.fullUrl?.match(/([A-Za-z]+\/[A-Za-z0-9\-.]{1,64})$/)?.[1];
      if (tail?.startsWith(`${e.type}/`) && !this.byUrl.has(tail)) this.byUrl.set(tail, e);
    }
  }

  /** The entry a reference names, or a reason naming the reference. */
  resolve(ref: { reference?: string } | undefined, what: string, kind: Kind): Result.Result<Entry, string> {
    const r = ref?.reference;
    if (r === undefined || r === "") return Result.fail(`${what} has no reference`);
    const target = this.byUrl.get(r) ?? (r.startsWith("#") ? undefined : this.byUrl.get(r.split("/_history/")[0]!));
    if (target === undefined) return Result.fail(`${what} ${r} resolves to nothing in the bundle`);
    if (target.type !== kind) return Result.fail(`${what} ${r} is a ${target.type}, not a ${kind}`);
    return Result.succeed(target);
  }

  /** The entry's resource decoded (once), or a reason naming it. */
  read<K extends Kind>(e: Entry, kind: K): Result.Result<ResourceOf<K>, string> {
    let r = this.decoded.get(e);
    if (r === undefined) {
      r = Result.mapError(decode(schemas[kind] as Schema.Codec<unknown, unknown>, e.resource), (err) => `${e.name}: ${err.message}`);
      this.decoded.set(e, r);
    }
    return r as Result.Result<ResourceOf<K>, string>;
  }

  /** A referenced resource, decoded: reasons name the reference or the resource. */
  follow<K extends Kind>(ref: { reference?: string } | undefined, what: string, kind: K): Result.Result<ResourceOf<K>, string> {
    return Result.flatMap(this.resolve(ref, what, kind), (e) => this.read(e, kind));
  }

  /** Whether the entry's resource has been decoded, valid or not (for the refusals of resources no report used). */
  wasRead(e: Entry): boolean {
    return this.decoded.has(e);
  }
}

// ---- codes ----

const codings = (c: { readonly coding?: ReadonlyArray<{ system?: string; code?: string; display?: string }> } | undefined) =>
  c?.coding ?? [];
const has = (c: Parameters<typeof codings>[0], system: string | RegExp, code: string) =>
  codings(c).some((k) => (typeof system === "string" ? k.system === system : system.test(k.system ?? "")) && k.code === code);

const isVisualFieldReport = (r: Record<string, unknown>) => {
  const profiles = isObject(r.meta) && Array.isArray(r.meta.profile) ? r.meta.profile : [];
  if (profiles.some((p) => typeof p === "string" && REPORT_PROFILE.test(p))) return true;
  const code = isObject(r.code) ? (r.code as { coding?: Array<{ system?: string; code?: string }> }) : undefined;
  return has(code, SNOMED, "103752008") || has(code, LOINC, "28629-4");
};

const codeKey = (system: string, code: string) => `${system}|${code}`;
const patternByCoding = new Map(
  Object.entries(patternCode).map(([p, c]) => [codeKey(fhirCoding(c).system, c.CodeValue), Number(p) as Pattern]),
);
const strategyByCoding = new Map(
  Object.entries(strategyCode).map(([s, c]) => [codeKey(fhirCoding(c).system, c.CodeValue), Number(s) as Strategy]),
);
/** CID 4250 (PS3.16): DCM 111800-111814 are test patterns, whether Isopter has the pattern or not. */
const isCid4250 = (k: { system?: string; code?: string }) => k.system === DICOM && /^1118(0\d|1[0-4])$/.test(k.code ?? "");

/** A pattern named as a word of a text ("Perimetry 24-2 OD", "Central 30-2 Threshold"). */
function patternOfText(text: string | undefined): Pattern | null {
  if (!text) return null;
  const words = text.toLowerCase().split(/[\s,;:()/]+/);
  const found = (Object.entries(patternLabel) as Array<[string, string]>)
    .filter(([p]) => Number(p) !== Pattern.Undefined)
    .filter(([, label]) => words.includes(label.toLowerCase()))
    .map(([p]) => Number(p) as Pattern);
  return found.length === 1 ? found[0]! : null;
}

const eyeBySnomed: Record<string, Eye> = {
  "18944008": Eye.Right, // right eye structure
  "24028007": Eye.Right, // right (qualifier), the IG's laterality
  "8966001": Eye.Left, // left eye structure
  "7771000": Eye.Left, // left (qualifier)
  "40638003": Eye.Binocular, // structure of both eyes
  "51440002": Eye.Binocular, // right and left (qualifier)
};
const eyeOfConcept = (c: Parameters<typeof codings>[0]): Eye | null => {
  for (const k of codings(c)) if (k.system === SNOMED && k.code !== undefined && k.code in eyeBySnomed) return eyeBySnomed[k.code]!;
  return null;
};
const eyeOfText = (text: string | undefined): Eye | null => {
  const words = (text ?? "").toUpperCase().split(/[\s,;:()/]+/);
  const eyes = ([Eye.Right, Eye.Left, Eye.Binocular] as const).filter((e) => words.includes(eyeCodes[e]));
  return eyes.length === 1 ? eyes[0]! : null;
};

const sexOf: Record<string, Sex> = { female: Sex.Female, male: Sex.Male, other: Sex.Other };

/** A dateTime as an instant (ISO, UTC); a date alone at noon UTC; a year or month alone is no instant. */
function instantOf(dt: string | undefined): string | null {
  if (dt === undefined || dt.length < 10) return null;
  const ms = Date.parse(dt.length === 10 ? `${dt}T12:00:00Z` : dt);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** "p < 5 %" as 5 (DICOM's percent); 100 (within normal limits) when the Observation flags nothing. */
function probabilityOf(o: ObservationResource): number {
  for (const i of o.interpretation ?? []) {
    const m = (i.text ?? "").match(/p\s*<\s*([\d.]+)\s*%/);
    if (m) return Number(m[1]);
  }
  return 100;
}

const secondsPer: Record<string, number> = { s: 1, sec: 1, second: 1, seconds: 1, min: 60, minute: 60, minutes: 60, h: 3600, ms: 0.001 };

function tally(o: ObservationResource | undefined): { errors: number; presentations: number } | null {
  if (o === undefined) return null;
  const n = o.valueRatio?.denominator?.value;
  const e = o.valueRatio?.numerator?.value;
  if (n !== undefined && e !== undefined) return { errors: e, presentations: n };
  const q = o.valueQuantity;
  if (q?.value !== undefined && (q.code === "%" || q.unit === "%")) return { errors: q.value, presentations: 100 };
  return null;
}

const firstResult = <T>(results: ReadonlyArray<Result.Result<T, string>>): Result.Result<T[], string> => {
  const out: T[] = [];
  for (const r of results) {
    if (Result.isFailure(r)) return Result.fail(r.failure);
    out.push(r.success);
  }
  return Result.succeed(out);
};

// ---- one report ----

function readReport(
  bundle: Bundle,
  entry: Entry,
  fileName: string,
  importedAt: string,
): Result.Result<Omit<ImportedField, "item">, string> {
  const decoded = bundle.read(entry, "DiagnosticReport");
  if (Result.isFailure(decoded)) return Result.fail(decoded.failure.slice(entry.name.length + 2));
  const report = decoded.success;
  if (!["final", "amended", "corrected", "appended"].includes(report.status))
    return Result.fail(`status ${report.status}: only a final (or amended, corrected, appended) report is imported`);

  const patientR = bundle.follow(report.subject, "subject", "Patient");
  if (Result.isFailure(patientR)) return Result.fail(patientR.failure);
  const patient = patientR.success;

  const observationsR = firstResult((report.result ?? []).map((ref, i) => bundle.follow(ref, `result ${i + 1}`, "Observation")));
  if (Result.isFailure(observationsR)) return Result.fail(observationsR.failure);
  const observations = observationsR.success.filter((o) => o.status !== "cancelled" && o.status !== "entered-in-error");
  const find = (system: string | RegExp, code: string) => observations.find((o) => has(o.code, system, code));

  // The key: the report's identifier; else its fullUrl when that is globally unique (a UUID or OID URN, a server URL).
  const identifier = (report.identifier ?? []).find((i) => i.system && i.value);
  const key = identifier
    ? `${identifier.system}|${identifier.value}`
    : entry.fullUrl && /^(urn:uuid:|urn:oid:|https?:\/\/)/.test(entry.fullUrl)
      ? entry.fullUrl
      : null;
  if (key === null)
    return Result.fail("no identifier (system and value) and no global fullUrl: it could not be recognised when imported again");

  // The sensitivities, and with them the pattern and strategy as Isopter writes them.
  const sensitivity = find(fhirSensitivityCode.system, fhirSensitivityCode.code);
  const component = (c: { system: string; code: string }) => sensitivity?.component?.find((k) => has(k.code, c.system, c.code));
  const patternConcept = component(componentCodes.pattern)?.valueCodeableConcept ?? report.code;
  const patternCoding = codings(patternConcept).find((k) => patternByCoding.has(codeKey(k.system ?? "", k.code ?? "")));
  const foreignPattern = codings(patternConcept).find((k) => !patternCoding && isCid4250(k));
  if (foreignPattern)
    return Result.fail(
      `unknown pattern: ${foreignPattern.display ?? foreignPattern.code} (DCM ${foreignPattern.code}) is not a pattern Isopter has`,
    );
  const pattern = patternCoding
    ? patternByCoding.get(codeKey(patternCoding.system!, patternCoding.code!))!
    : (patternOfText(patternConcept.text) ?? patternOfText(report.code.text));
  if (pattern === null || pattern === Pattern.Undefined)
    return Result.fail(`unknown pattern: ${report.code.text ? `"${report.code.text}" names` : "the report names"} no pattern Isopter has`);
  const geometry = getPattern(pattern);

  const eyes = [
    ...(report.extension ?? []).filter((x) => x.url.endsWith("/laterality")).map((x) => eyeOfConcept(x.valueCodeableConcept)),
    ...observations.map((o) => eyeOfConcept(o.bodySite)),
    ...observations.flatMap((o) =>
      (o.extension ?? []).filter((x) => x.url.endsWith("/laterality")).map((x) => eyeOfConcept(x.valueCodeableConcept)),
    ),
  ].filter((e): e is Eye => e !== null);
  const eye = eyes[0] ?? eyeOfText(report.code.text);
  if (eye === null)
    return Result.fail("no eye: neither a laterality, nor an Observation's bodySite, nor OD/OS/OU in the report's code.text");
  if (eyes.some((e) => e !== eye))
    return Result.fail(`the eye is given twice, differently (${[...new Set(eyes)].map((e) => eyeCodes[e]).join(", ")})`);
  if (geometry.binocular !== (eye === Eye.Binocular))
    return Result.fail(
      `the ${patternLabel[pattern]} is ${geometry.binocular ? "binocular" : "for one eye"}, but the report says ${eyeCodes[eye]}`,
    );

  const strategyConcept = component(componentCodes.strategy)?.valueCodeableConcept;
  const strategyCoding = codings(strategyConcept).find((k) => strategyByCoding.has(codeKey(k.system ?? "", k.code ?? "")));
  const strategy = strategyCoding ? strategyByCoding.get(codeKey(strategyCoding.system!, strategyCoding.code!))! : Strategy.Undefined;
  const strategyName = strategyCoding?.display ?? strategyConcept?.text ?? codings(strategyConcept)[0]?.display ?? null;

  if (sensitivity?.valueSampledData?.data === undefined)
    return Result.fail(
      "no sensitivities per location (the IG has no element for them; Isopter writes them as a SampledData Observation): nothing to analyse",
    );
  const sd = sensitivity.valueSampledData;
  const screening = isScreeningResult({ strategy, pattern });
  const notSeen = screening ? 0 : -1;
  const samples = sd.data!.trim().split(/\s+/);
  if (samples.length !== geometry.points.length)
    return Result.fail(
      `Observation ${sensitivity.id ?? ""} has ${samples.length} sensitivities; the ${patternLabel[pattern]} has ${geometry.points.length} locations`,
    );
  const thresholds: number[] = [];
  for (const [i, s] of samples.entries()) {
    if (s === "L") thresholds.push(notSeen);
    else if (s === "E" || s === "U") return Result.fail(`location ${i + 1}: ${s === "E" ? "no value (E)" : "above the upper limit (U)"}`);
    else thresholds.push((sd.origin.value ?? 0) + (sd.factor ?? 1) * Number(s));
  }

  const takenAt = instantOf(report.effectiveDateTime ?? report.effectivePeriod?.start ?? sensitivity.effectiveDateTime);
  if (takenAt === null) return Result.fail("no date and time of the test (effectiveDateTime or effectivePeriod.start)");

  // Catch trials, duration.
  const fl = tally(find(IG_CODES, "400204"));
  const fp = tally(find(IG_CODES, "400205") ?? find(IG_CODES, "400202"));
  const fn = tally(find(IG_CODES, "400206") ?? find(IG_CODES, "400203"));
  const none = { errors: 0, presentations: 0 };
  const falsePositive = fp ?? none;
  const falseNegative = fn ?? none;
  const blindSpot = fl ?? none;
  const durationQ = find(SNOMED, "252129004")?.valueQuantity;
  const durationUnit = secondsPer[durationQ?.code ?? durationQ?.unit ?? "s"] ?? 1;
  const duration = durationQ?.value === undefined ? 0 : durationQ.value * durationUnit;
  const presentations = component(componentCodes.presentations)?.valueInteger ?? 0;

  // The perimeter's own indices.
  const md = find(SNOMED, "422859007");
  const psd = find(SNOMED, "421362004");
  const vfi = find(DICOM, visualFieldIndex.CodeValue);
  const ght = find(DICOM, ghtAnalysis.CodeValue);
  const method = [md, psd, vfi, ght].map((o) => o?.method?.text ?? codings(o?.method)[0]?.display).find((t) => t !== undefined);
  const normsName = method?.replace(/^Normative database:\s*/, "") ?? null;
  const indices: DeviceIndices = {
    normsName,
    md: md?.valueQuantity?.value ?? null,
    mdProbability: md?.valueQuantity?.value === undefined ? null : probabilityOf(md),
    psd: psd?.valueQuantity?.value ?? null,
    psdProbability: psd?.valueQuantity?.value === undefined ? null : probabilityOf(psd),
    vfi: vfi?.valueQuantity?.value ?? null,
    ght: ght ? (codings(ght.valueCodeableConcept)[0]?.display ?? ght.valueCodeableConcept?.text ?? null) : null,
    td: null,
    tdProbability: null,
    pd: null,
    pdProbability: null,
  };
  const deviceIndices = Object.entries(indices).some(([k, v]) => k !== "normsName" && v !== null) ? indices : null;
  const esterman = observations.flatMap((o) => o.component ?? []).find((c) => has(c.code, ISOPTER_FHIR_SYSTEM, "esterman-score"))
    ?.valueQuantity?.value;

  // The device, where an Observation references one.
  let device: DeviceResource | null = null;
  for (const o of observations) {
    if (o.device === undefined) continue;
    const d = bundle.follow(o.device, `${o.id ? `Observation/${o.id}` : "an Observation"}'s device`, "Device");
    if (Result.isFailure(d)) return Result.fail(d.failure);
    device = d.success;
    break;
  }
  const ownCode = sensitivity.code.coding?.some((k) => k.system === ISOPTER_FHIR_SYSTEM) ?? false;
  // Isopter's MD, PSD, VFI and GHT name "TABLE, version VERSION": the version is the result's normative version.
  const normativeVersion = ownCode && normsName ? (normsName.match(/, version (\S+)$/)?.[1] ?? null) : null;

  // Stimulus size and showtime are not in the IG's resources: importedResult's defaults.
  const result = importedResult(
    {
      takenAt,
      eye,
      pattern,
      strategy,
      thresholds,
      catchTrials: { falseNegative, falsePositive, blindSpot },
      presentations,
      examinationTimeInSeconds: duration,
      estermanScore: esterman ?? null,
      normativeVersion,
    },
    geometry.blindSpotIndices,
    {
      kind: "imported",
      format: "fhir",
      key,
      manufacturer: device?.manufacturer ?? (ownCode ? "Isopter" : null),
      model: device?.deviceName?.find((n) => n.type === "model-name")?.name ?? device?.modelNumber ?? device?.deviceName?.[0]?.name ?? null,
      serial: device?.serialNumber ?? null,
      software: device?.version?.[0]?.value ?? null,
      patternName: patternCoding?.display ?? patternConcept.text ?? null,
      strategyName,
      deviceIndices,
      accessionNumber: null,
      requestedProcedureId: null,
      fileName,
      importedAt,
    },
  );
  return Result.succeed({ patient: identityOf(patient), result });
}

function identityOf(p: PatientResource): ImportedField["patient"] {
  const ids = (p.identifier ?? []).filter((i) => i.value);
  const id =
    ids.find((i) => has(i.type, "http://terminology.hl7.org/CodeSystem/v2-0203", "MR")) ??
    ids.find((i) => i.use === "usual" || i.use === "official") ??
    ids[0];
  const names = p.name ?? [];
  const n = names.find((x) => x.use === "official" || x.use === "usual") ?? names[0];
  const name = n ? (n.text ?? [...(n.given ?? []), n.family ?? ""].join(" ")).replace(/\s+/g, " ").trim() : "";
  return {
    id: id?.value ?? null,
    issuer: id?.system ?? null,
    name: name === "" ? null : name,
    birthdate: p.birthDate?.length === 10 ? (p.birthDate as IsoDate) : null,
    sex: p.gender === undefined ? null : (sexOf[p.gender] ?? null),
  };
}

/**
 * The fields of an FHIR Bundle. `json` is the parsed JSON value (what the server has after reading the body); a string
 * is taken as the file's text and parsed here (a parse error is `unreadable("not JSON: ...")`). Each visual-field
 * DiagnosticReport is one field, named `DiagnosticReport/<id>` (`entry N (DiagnosticReport)` without an id; N counts
 * the bundle's entries from 1); a report that cannot be imported is refused with the reason, naming the resource at
 * fault. A resource of the kinds read (Patient, DiagnosticReport, Observation, Device) that fails validation and that no
 * report needed is refused too: the bundle fails validation there. JSON that is not a Bundle is unreadable.
 */
export function readFhirBundle(json: unknown, fileName: string, importedAt: string): FileReading {
  let value = json;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (e) {
      return unreadable(`not JSON: ${(e as Error).message}`);
    }
  }
  if (!isObject(value)) return unreadable("not an FHIR Bundle: the JSON is not an object");
  if (value.resourceType !== "Bundle")
    return unreadable(
      typeof value.resourceType === "string"
        ? `not an FHIR Bundle: it is a ${value.resourceType}`
        : "not an FHIR Bundle: the JSON has no resourceType",
    );
  if (typeof value.type !== "string" || !bundleTypes.includes(value.type))
    return unreadable(`a Bundle of type ${JSON.stringify(value.type ?? null)}: only ${bundleTypes.join(", ")} are read`);
  if (value.entry !== undefined && !Array.isArray(value.entry)) return unreadable("Bundle.entry is not an array");

  const refused: RefusedField[] = [];
  const entries: Entry[] = [];
  for (const [i, raw] of ((value.entry as unknown[] | undefined) ?? []).entries()) {
    const ordinal = i + 1;
    const resource = isObject(raw) ? raw.resource : undefined;
    if (!isObject(resource) || typeof resource.resourceType !== "string") {
      refused.push({ item: `entry ${ordinal}`, reason: "no resource with a resourceType" });
      continue;
    }
    const fullUrl = isObject(raw) && typeof raw.fullUrl === "string" ? raw.fullUrl : null;
    const type = resource.resourceType;
    const name = typeof resource.id === "string" && resource.id !== "" ? `${type}/${resource.id}` : `entry ${ordinal} (${type})`;
    entries.push({ ordinal, fullUrl, resource, type, name });
  }
  const bundle = new Bundle(entries);
  const reports = entries.filter((e) => e.type === "DiagnosticReport" && isVisualFieldReport(e.resource));
  if (entries.length > 0 && reports.length === 0)
    return unreadable("a Bundle without a visual-field DiagnosticReport (SNOMED 103752008 Perimetry or LOINC 28629-4)");

  const fields: ImportedField[] = [];
  const keys = new Map<string, string>();
  for (const e of reports) {
    const read = readReport(bundle, e, fileName, importedAt);
    if (Result.isFailure(read)) {
      refused.push({ item: e.name, reason: read.failure });
      continue;
    }
    const earlier = keys.get(read.success.result.source.key);
    if (earlier !== undefined) {
      refused.push({ item: e.name, reason: `the same identifier (${read.success.result.source.key}) as ${earlier}` });
      continue;
    }
    keys.set(read.success.result.source.key, e.name);
    fields.push({ item: e.name, ...read.success });
  }
  // The rest of the bundle's resources of the kinds read: one that fails validation is a refusal of its own.
  for (const e of entries) {
    if (!Object.hasOwn(schemas, e.type) || bundle.wasRead(e)) continue;
    const r = bundle.read(e, e.type as Kind);
    if (Result.isFailure(r)) refused.push({ item: e.name, reason: r.failure.slice(e.name.length + 2) });
  }
  return { ok: true, fields, refused };
}
