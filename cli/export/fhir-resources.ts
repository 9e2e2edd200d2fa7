import { ghtOutcome } from "../../core/dicom/codes.ts";
import { fhirSensitivityCode, sensitivityValue } from "../../core/import/fhir.ts";
import { normativeTableName } from "../../core/analytics/normative/registry.ts";
import { significance } from "../../core/analytics/significance.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { isScreeningResult, locationSeen } from "../../core/analytics/seen.ts";
import { dicomUid } from "../../adapters/interchange/stable-id.ts";
import { clinicDateTime } from "../../core/model/clinic-time.ts";
import { patternLabel, Sex } from "../../core/model/enums.ts";
import { organisationOid, resultIdSystem } from "../../adapters/interchange/identifier-systems.ts";
import type { ExportContext } from "./context.ts";
import { eyeCode, type ExportRecord } from "./record.ts";
import { stableUuid } from "../../adapters/interchange/stable-id.ts";
import { stageDefinitions } from "./fhir-stages.ts";
import { criteriaObservations } from "./fhir-criteria.ts";
import type { EyeProgression } from "../../core/analytics/progression/eye-progression.ts";

// FHIR R4 after the HL7 Eye Care IG 0.1.0 (STU 1 ballot; github.com/HL7/fhir-eyecare-ig, input/resources): per result
// one DiagnosticReport of the profile diagnostic-report-visual-field (category SNOMED 394594003 Ophthalmology, code
// SNOMED 103752008 Perimetry beside LOINC 28629-4) with the printed page as presentedForm, and its Observations.
// Those whose code is in the IG's value set observation-visual-field (required binding) claim the profile
// observation-visual-field: MD (SNOMED 422859007), PSD (SNOMED 421362004, as the IG's example), test duration
// (SNOMED 252129004), and the reliability ratios of the IG's code system with numerator and denominator (fixation
// loss 400204, false positive 400205, false negative 400206). VFI (DICOM 111852), the Glaucoma Hemifield Test (DICOM
// 111855) have no code in that value set: they are plain Observations. The mean sensitivity has no code in any published
// system: it is left out (the PDF shows it). Every Observation has
// the category exam and the eye as bodySite. Times carry the clinic's offset.
// The indices read against normals (MD, PSD, VFI, GHT) name the normative database and its version as
// Observation.method (R4's DiagnosticReport has no note; its conclusion says it too); a threshold result without one
// gets none of them, and the export warns naming the result. Screenings and Esterman, which have no threshold indices,
// give the locations seen of the locations tested as a Ratio (Esterman with its efficiency score as a component),
// coded in Isopter's own code system (no published code says "locations seen").

export const systems = {
  loinc: "http://loinc.org",
  snomed: "http://snomed.info/sct",
  ucum: "http://unitsofmeasure.org",
  dicom: "http://dicom.nema.org/resources/ontology/DCM",
  /** The IG's code system as published (0.1.0): its URL there and in its examples. */
  eyecare: "http://hl7.org/fhir/uv/eyecare/CodeSystem/visual-field-observations",
  observationCategory: "http://terminology.hl7.org/CodeSystem/observation-category",
  diagnosticServiceSection: "http://terminology.hl7.org/CodeSystem/v2-0074",
  identifierType: "http://terminology.hl7.org/CodeSystem/v2-0203",
  interpretation: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
  /** Isopter's own codes: an OID under 2.25 (ISO/IEC 9834-8) derived from a fixed name, the same in every export. */
  isopter: `urn:oid:${dicomUid("isopter:code-system:observations")}`,
} as const;

export const profiles = {
  report: "http://hl7.org/fhir/uv/eyecare/StructureDefinition/diagnostic-report-visual-field",
  observation: "http://hl7.org/fhir/uv/eyecare/StructureDefinition/observation-visual-field",
} as const;

export const REPORT_LOINC = "28629-4";
export const PERIMETRY_SNOMED = "103752008";
export const OPHTHALMOLOGY_SNOMED = "394594003";
export const MD_SNOMED = "422859007";
export const PSD_SNOMED = "421362004";

export type Json = Record<string, unknown>;
export interface Entry {
  readonly fullUrl: string;
  readonly resource: Json;
}

const coding = (system: string, code: string, display: string) => ({ system, code, display });

/** Eye structures: right 18944008, left 8966001, both 40638003. */
export const bodySiteOf = (eye: number) =>
  eye === 0
    ? { coding: [coding(systems.snomed, "18944008", "Right eye structure")], text: "right eye" }
    : eye === 1
      ? { coding: [coding(systems.snomed, "8966001", "Left eye structure")], text: "left eye" }
      : { coding: [coding(systems.snomed, "40638003", "Structure of both eyes")], text: "both eyes" };

const sexToFhir: Record<number, string> = { [Sex.Female]: "female", [Sex.Male]: "male", [Sex.Other]: "other" };

export const fullUrl = (kind: string, id: string) => `urn:uuid:${stableUuid(`${kind}:${id}`)}`;
export const idOf = (url: string) => url.slice("urn:uuid:".length);

/** A patient's fullUrl, hashed once per patient (their results, which come together, each reference it). */
const patientUrls = new WeakMap<ExportRecord["patient"], string>();
const patientUrl = (p: ExportRecord["patient"]) => {
  let url = patientUrls.get(p);
  if (url === undefined) patientUrls.set(p, (url = fullUrl("Patient", p.id)));
  return url;
};

export function fhirPatient(r: ExportRecord, context: ExportContext): Entry {
  const p = r.patient;
  const url = patientUrl(p);
  return {
    fullUrl: url,
    resource: {
      resourceType: "Patient",
      id: idOf(url),
      identifier: [
        {
          use: "usual",
          type: { coding: [coding(systems.identifierType, "MR", "Medical record number")] },
          system: context.patientIdSystem,
          value: p.uniqueId,
        },
      ],
      name: [{ text: p.name }],
      gender: sexToFhir[p.gender] ?? "unknown",
      birthDate: p.birthdate,
    },
  };
}

/** How one Observation is coded and valued; value null leaves it out (no normative database, no catch trials). */
export interface ObservationDefinition {
  readonly key: string;
  readonly code: { system: string; code: string; display: string };
  /** Claims observation-visual-field: only codes in the IG's value set. */
  readonly profiled: boolean;
  value(r: ExportRecord): Json | null;
}

const dB = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? null
    : { valueQuantity: { value: round(v, 4), unit: "dB", system: systems.ucum, code: "dB" } };
const ratio = (c: { errors: number; presentations: number }) =>
  c.presentations > 0 ? { valueRatio: { numerator: { value: c.errors }, denominator: { value: c.presentations } } } : null;
/**
 * "Normative database: TABLE, version VERSION" (Observation.method) of a result read against normals: the table's name
 * without the " · version" the screens add (normativeDatabaseName), which would say the version twice here.
 */
export const normativeMethod = (r: ExportRecord): Json | null => {
  const nv = r.analysis().normative;
  return nv ? { method: { text: `Normative database: ${normativeText(r, nv.normativeVersion)}` } } : null;
};
/** "TABLE, version VERSION" of the database a result was read against. */
const normativeText = (r: ExportRecord, version: string) =>
  `${normativeTableName(r.result.pattern, r.result.normativeVersion)}, version ${version}`;
/** The value with the normative database it was read against; null when there is no value or no database. */
const againstNormals = (r: ExportRecord, value: Json | null) => {
  const method = normativeMethod(r);
  return value === null || method === null ? null : { ...value, ...method };
};

/** Locations seen of locations presented (blind-spot locations of the grid are not presented), for a seen / not-seen result. */
export function seenOfTested(r: ExportRecord): { seen: number; tested: number } {
  const res = r.result;
  const blind = new Set(getPattern(res.pattern).blindSpotIndices);
  const screening = isScreeningResult(res);
  let seen = 0,
    tested = 0;
  res.thresholds.forEach((v, i) => {
    if (blind.has(i)) return;
    const s = locationSeen(v, screening);
    if (s === null) return;
    tested++;
    if (s) seen++;
  });
  return { seen, tested };
}

/** Abnormal ("A") with the significance as a note when the index is outside normal limits. */
const withSignificance = (value: Json | null, level: Parameters<typeof significance>[0]) => {
  const p = significance(level);
  if (value === null || p === null) return value;
  return { ...value, interpretation: [{ coding: [coding(systems.interpretation, "A", "Abnormal")], text: `p < ${p * 100} %` }] };
};

export const definitions: readonly ObservationDefinition[] = [
  {
    // The sensitivities themselves (the IG has no element for them): what a reader needs to analyse the field again,
    // and what Isopter's import reads back (core/import/fhir.ts).
    key: "sensitivity",
    code: fhirSensitivityCode,
    profiled: false,
    value: (r) => sensitivityValue(r.result),
  },
  {
    key: "md",
    code: coding(systems.snomed, MD_SNOMED, "Mean deviation"),
    profiled: true,
    value: (r) => againstNormals(r, withSignificance(dB(r.analysis().normative?.global.tmd), r.analysis().normative?.globalLevels.tmd)),
  },
  {
    key: "psd",
    code: coding(systems.snomed, PSD_SNOMED, "Pattern standard deviation"),
    profiled: true,
    value: (r) => againstNormals(r, withSignificance(dB(r.analysis().normative?.global.psd), r.analysis().normative?.globalLevels.psd)),
  },
  {
    key: "duration",
    code: coding(systems.snomed, "252129004", "Test duration"),
    profiled: true,
    value: (r) => ({ valueQuantity: { value: r.result.examinationTimeInSeconds, unit: "s", system: systems.ucum, code: "s" } }),
  },
  {
    key: "fl",
    code: coding(systems.eyecare, "400204", "Fixation loss"),
    profiled: true,
    value: (r) => ratio(r.result.catchTrials.blindSpot),
  },
  {
    key: "fpr",
    code: coding(systems.eyecare, "400205", "False positive ratio"),
    profiled: true,
    value: (r) => ratio(r.result.catchTrials.falsePositive),
  },
  {
    key: "fnr",
    code: coding(systems.eyecare, "400206", "False negative ratio"),
    profiled: true,
    value: (r) => ratio(r.result.catchTrials.falseNegative),
  },
  {
    key: "vfi",
    code: coding(systems.dicom, "111852", "Visual Field Index"),
    profiled: false,
    value: (r) => {
      const v = r.analysis().normative?.global.vfi;
      return v === undefined || !Number.isFinite(v)
        ? null
        : againstNormals(r, { valueQuantity: { value: round(v, 2), unit: "%", system: systems.ucum, code: "%" } });
    },
  },
  {
    key: "ght",
    code: coding(systems.dicom, "111855", "Glaucoma Hemifield Test Analysis"),
    profiled: false,
    value: (r) => {
      const ght = r.analysis().normative?.ght;
      return ght ? againstNormals(r, { valueCodeableConcept: { coding: [ghtCoding[ght.outcome]], text: ght.outcome } }) : null;
    },
  },
  {
    key: "seen",
    code: coding(systems.isopter, "seen-of-tested", "Locations seen of locations tested"),
    profiled: false,
    value: (r) => {
      if (!isScreeningResult(r.result)) return null;
      const { seen, tested } = seenOfTested(r);
      if (tested === 0) return null;
      const score = r.analysis().estermanScore;
      return {
        valueRatio: { numerator: { value: seen }, denominator: { value: tested } },
        ...(score !== null
          ? {
              component: [
                {
                  code: {
                    coding: [coding(systems.isopter, "esterman-score", "Esterman efficiency score")],
                    text: "Esterman efficiency score",
                  },
                  valueQuantity: { value: score, unit: "%", system: systems.ucum, code: "%" },
                },
              ],
            }
          : {}),
      };
    },
  },
  // The glaucoma stages (issue 30): fhir-stages.ts.
  ...stageDefinitions({
    system: systems.isopter,
    ucum: systems.ucum,
    normativeMethod,
    observationUrl: (r, key) => fullUrl("Observation", `${r.test.id}:${key}`),
  }),
];

/**
 * What a result's FHIR cannot say, for a warning naming the result: a threshold result without a normative database
 * has no MD, PSD, VFI or GHT.
 */
export function fhirGaps(r: ExportRecord): string[] {
  if (isScreeningResult(r.result) || r.analysis().normative !== null) return [];
  return [
    `no normative database for ${patternLabel[r.result.pattern]} (version ${r.result.normativeVersion ?? "none"}): the MD, PSD, VFI and GHT Observations are left out`,
  ];
}

/** GHT outcomes coded as the OPV codes them (CID 4254, core/dicom/codes.ts), in FHIR's code systems. */
const ghtCoding: Record<string, { system: string; code: string; display: string }> = Object.fromEntries(
  Object.entries(ghtOutcome).map(([outcome, c]) => [
    outcome,
    coding(c.CodingSchemeDesignator === "SCT" ? systems.snomed : systems.dicom, c.CodeValue, c.CodeMeaning),
  ]),
);

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export const observationCategory = [{ coding: [coding(systems.observationCategory, "exam", "Exam")] }];
export const reportCategory = [
  { coding: [coding(systems.snomed, OPHTHALMOLOGY_SNOMED, "Ophthalmology"), coding(systems.diagnosticServiceSection, "OTH", "Other")] },
];
export const reportCode = (label: string) => ({
  coding: [coding(systems.snomed, PERIMETRY_SNOMED, "Perimetry"), coding(systems.loinc, REPORT_LOINC, "Perimetry study")],
  text: `Perimetry ${label}`,
});
export const conclusionOf = (r: ExportRecord) => {
  const rel = r.analysis().reliability;
  const reliability =
    rel.reliable && r.test.reliable
      ? "Reliable test."
      : `Unreliable test${rel.problems.length ? `: ${rel.problems.join(", ")}` : " (marked by a clinician)"}.`;
  const nv = r.analysis().normative;
  const norms = nv
    ? ` Indices read against the normative database ${normativeText(r, nv.normativeVersion)}.`
    : isScreeningResult(r.result)
      ? ""
      : ` No normative database for ${patternLabel[r.result.pattern]}: no MD, PSD, VFI or GHT.`;
  return reliability + norms;
};

/** What a result's observations say: per definition with a value, its fullUrl and value. */
export interface ObservationOf {
  readonly definition: ObservationDefinition;
  readonly fullUrl: string;
  readonly value: Json;
}

/** What one result's entries share: its observations, the patient reference, the clinic time and the eye. */
export interface ResultParts {
  readonly observations: readonly ObservationOf[];
  readonly subject: { readonly reference: string };
  readonly effective: string;
  readonly bodySite: ReturnType<typeof bodySiteOf>;
}

/**
 * The result's Observations; with `progression` (the result is its eye's latest on the pattern, as the JSON carries
 * it), the eye's progression criteria and reading too (fhir-criteria.ts).
 */
export function resultParts(r: ExportRecord, context: ExportContext, progression?: EyeProgression | null): ResultParts {
  const observations: ObservationOf[] = [];
  for (const definition of definitions) {
    const value = definition.value(r);
    if (value !== null) observations.push({ definition, value, fullUrl: fullUrl("Observation", `${r.test.id}:${definition.key}`) });
  }
  if (progression?.criteria)
    observations.push(
      ...criteriaObservations(progression.criteria, progression.used, {
        system: systems.isopter,
        ucum: systems.ucum,
        observationUrl: (id, key) => fullUrl("Observation", `${id}:${key}`),
        seriesUrl: (key) => fullUrl("Observation", `${r.patient.id}:${progression.eye}:${progression.pattern}:${key}`),
      }),
    );
  return {
    observations,
    subject: { reference: patientUrl(r.patient) },
    effective: clinicDateTime(r.result.takenAt, context.timeZone),
    bodySite: bodySiteOf(r.result.eye),
  };
}

/** "24-2 OD": the report's title after "Perimetry". */
export const reportLabel = (r: ExportRecord) => `${patternLabel[r.result.pattern]} ${eyeCode(r.result.eye)}`;

/** The printed page as the report's presentedForm. */
export const presentedForm = (pdf: Uint8Array, label: string) => [
  { contentType: "application/pdf", data: Buffer.from(pdf).toString("base64"), title: `Perimetry ${label}` },
];

/**
 * The worklist order a result was taken for (issue 29) as the report's identifiers: the accession number typed ACSN
 * (v2-0203 "Accession ID", as FHIR R4 types it) and the requested procedure ID, each in a namespace of the organisation
 * (arcs .3 and .4 under its OID: the accession numbers and requested procedures its RIS issues for it).
 */
const orderIdentifiers = (r: ExportRecord, context: ExportContext) => {
  const order = r.stored.kind === "measurement" ? r.stored.measurement.order : r.stored.examination.order;
  const oid = organisationOid(context.organisation.id);
  return [
    ...(order?.accessionNumber
      ? [
          {
            type: { coding: [coding(systems.identifierType, "ACSN", "Accession ID")] },
            system: `urn:oid:${oid}.3`,
            value: order.accessionNumber,
          },
        ]
      : []),
    ...(order?.requestedProcedureId ? [{ system: `urn:oid:${oid}.4`, value: order.requestedProcedureId }] : []),
  ];
};

/** The DiagnosticReport of one result, referencing its observations. `pdf`: the printed page. */
export function fhirReport(r: ExportRecord, context: ExportContext, parts: ResultParts, pdf?: Uint8Array | null): Entry {
  const reportUrl = fullUrl("DiagnosticReport", r.test.id);
  const label = reportLabel(r);
  return {
    fullUrl: reportUrl,
    resource: {
      resourceType: "DiagnosticReport",
      id: idOf(reportUrl),
      meta: { profile: [profiles.report] },
      identifier: [{ system: resultIdSystem(context.organisation.id), value: r.test.id }, ...orderIdentifiers(r, context)],
      status: "final",
      category: reportCategory,
      code: reportCode(label),
      subject: parts.subject,
      effectiveDateTime: parts.effective,
      issued: parts.effective,
      result: parts.observations.map((o) => ({ reference: o.fullUrl })),
      conclusion: conclusionOf(r),
      ...(pdf ? { presentedForm: presentedForm(pdf, label) } : {}),
    },
  };
}

export function fhirObservation(o: ObservationOf, parts: ResultParts): Entry {
  const d = o.definition;
  return {
    fullUrl: o.fullUrl,
    resource: {
      resourceType: "Observation",
      id: idOf(o.fullUrl),
      ...(d.profiled ? { meta: { profile: [profiles.observation] } } : {}),
      status: "final",
      category: observationCategory,
      code: { coding: [d.code], text: d.code.display },
      subject: parts.subject,
      effectiveDateTime: parts.effective,
      ...o.value,
      bodySite: parts.bodySite,
    },
  };
}

/** The report and its observations for one result; the patient is referenced by fullUrl. `pdf`: the printed page. */
export function fhirResources(
  r: ExportRecord,
  context: ExportContext,
  pdf?: Uint8Array | null,
  progression?: EyeProgression | null,
): Entry[] {
  const parts = resultParts(r, context, progression);
  return [fhirReport(r, context, parts, pdf), ...parts.observations.map((o) => fhirObservation(o, parts))];
}
