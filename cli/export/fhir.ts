import { patternLabel, Sex } from "../../core/model/enums.ts";
import { eyeCode, type ExportRecord } from "./record.ts";
import type { TextSink } from "./sink.ts";
import { stableUuid } from "./stable-id.ts";
import type { ExportWriter } from "./writer.ts";

// FHIR R4 after the HL7 Eye Care IG draft (0.1.0): per result one DiagnosticReport (LOINC 28629-4, SNOMED 103752008
// Perimetry) referencing one Observation per index: mean deviation (SNOMED 422859007, dB), pattern standard deviation,
// VFI (DICOM CID 4257 111852), mean sensitivity, test duration (SNOMED 252129004), fixation-loss, false-positive and
// false-negative ratios (the IG's visual-field-observations codes 400204, 400205, 400206). Laterality is each
// Observation's bodySite (SNOMED eye structures). Indices without a code in any published system (PSD, mean
// sensitivity) use our own code system, named below. Written as one Bundle of type collection, entry by entry.

export const systems = {
  loinc: "http://loinc.org",
  snomed: "http://snomed.info/sct",
  ucum: "http://unitsofmeasure.org",
  dicom: "http://dicom.nema.org/resources/ontology/DCM",
  eyecare: "http://hl7.org/fhir/uv/eyecare/CodeSystem/visual-field-observations",
  observationCategory: "http://terminology.hl7.org/CodeSystem/observation-category",
  /** Ours: indices no published system codes. ".invalid" is a reserved TLD, so it can never clash with a real one. */
  isopter: "https://isopter.invalid/fhir/CodeSystem/visual-field-indices",
  patientUniqueId: "https://isopter.invalid/fhir/sid/patient-unique-id",
  measurementId: "https://isopter.invalid/fhir/sid/measurement-id",
} as const;

export const REPORT_LOINC = "28629-4";
export const MD_SNOMED = "422859007";

type Json = Record<string, unknown>;
const coding = (system: string, code: string, display?: string) => ({ system, code, ...(display ? { display } : {}) });

/** Eye structures: right 18944008, left 8966001, both 40638003. */
const bodySiteOf = (eye: number) =>
  eye === 0
    ? { coding: [coding(systems.snomed, "18944008", "Right eye structure")], text: "right eye" }
    : eye === 1
      ? { coding: [coding(systems.snomed, "8966001", "Left eye structure")], text: "left eye" }
      : { coding: [coding(systems.snomed, "40638003", "Structure of both eyes")], text: "both eyes" };

const sexToFhir: Record<number, string> = { [Sex.Female]: "female", [Sex.Male]: "male", [Sex.Other]: "other" };

export const fullUrl = (kind: string, id: string) => `urn:uuid:${stableUuid(`${kind}:${id}`)}`;
const idOf = (url: string) => url.slice("urn:uuid:".length);

export function fhirPatient(r: ExportRecord): { fullUrl: string; resource: Json } {
  const p = r.patient;
  const url = fullUrl("Patient", p.id);
  return {
    fullUrl: url,
    resource: {
      resourceType: "Patient",
      id: idOf(url),
      identifier: [{ system: systems.patientUniqueId, value: p.uniqueId }],
      name: [{ text: p.name }],
      gender: sexToFhir[p.gender] ?? "unknown",
      birthDate: p.birthdate,
    },
  };
}

/** One index the report carries as an Observation: how it is coded, and where its value comes from. */
interface IndexDefinition {
  readonly key: string;
  readonly code: { system: string; code: string; display?: string };
  readonly text: string;
  readonly unit: { unit: string; code: string };
  value(r: ExportRecord): number | null;
}

const dB = { unit: "dB", code: "dB" };
const ratio = { unit: "ratio", code: "1" };
const indexDefinitions: readonly IndexDefinition[] = [
  { key: "md", code: coding(systems.snomed, MD_SNOMED, "Mean deviation of visual field"), text: "Mean deviation (MD)", unit: dB, value: (r) => r.analysis().normative?.global.tmd ?? null },
  { key: "psd", code: coding(systems.isopter, "psd", "Pattern standard deviation"), text: "Pattern standard deviation (PSD)", unit: dB, value: (r) => r.analysis().normative?.global.psd ?? null },
  { key: "vfi", code: coding(systems.dicom, "111852", "Visual Field Index"), text: "Visual field index (VFI)", unit: { unit: "%", code: "%" }, value: (r) => r.analysis().normative?.global.vfi ?? null },
  { key: "ms", code: coding(systems.isopter, "ms", "Mean sensitivity"), text: "Mean sensitivity", unit: dB, value: (r) => r.analysis().normative?.global.msens ?? r.analysis().octopus?.ms ?? null },
  { key: "duration", code: coding(systems.snomed, "252129004", "Test duration"), text: "Test duration", unit: { unit: "s", code: "s" }, value: (r) => r.result.examinationTimeInSeconds },
  { key: "fl", code: coding(systems.eyecare, "400204", "Fixation loss"), text: "Fixation-loss ratio", unit: ratio, value: (r) => r.analysis().reliability.fixationLossRate },
  { key: "fpr", code: coding(systems.eyecare, "400205", "False positive ratio"), text: "False-positive ratio", unit: ratio, value: (r) => r.analysis().reliability.falsePositiveRate },
  { key: "fnr", code: coding(systems.eyecare, "400206", "False negative ratio"), text: "False-negative ratio", unit: ratio, value: (r) => r.analysis().reliability.falseNegativeRate },
];

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The indices with a value, rounded as written. */
const presentIndices = (r: ExportRecord) =>
  indexDefinitions.flatMap((d) => {
    const v = d.value(r);
    return v !== null && Number.isFinite(v) ? [{ d, value: round(v, 4) }] : [];
  });

const observationCategory = [{ coding: [coding(systems.observationCategory, "exam", "Exam")] }];
const reportCode = (label: string) => ({ coding: [coding(systems.loinc, REPORT_LOINC), coding(systems.snomed, "103752008", "Perimetry")], text: `Perimetry ${label}` });
const conclusionOf = (r: ExportRecord) => {
  const rel = r.analysis().reliability;
  return rel.reliable && r.test.reliable ? "Reliable test." : `Unreliable test${rel.problems.length ? `: ${rel.problems.join(", ")}` : " (marked by a clinician)"}.`;
};

/** The report and its observations for one result; the patient is referenced by fullUrl. */
export function fhirResources(r: ExportRecord): Array<{ fullUrl: string; resource: Json }> {
  const subject = { reference: fullUrl("Patient", r.patient.id) };
  const effective = new Date(r.result.takenAt).toISOString();
  const bodySite = bodySiteOf(r.result.eye);
  const observations = presentIndices(r).map(({ d, value }) => {
    const url = fullUrl("Observation", `${r.test.id}:${d.key}`);
    return {
      fullUrl: url,
      resource: {
        resourceType: "Observation",
        id: idOf(url),
        status: "final",
        category: observationCategory,
        code: { coding: [d.code], text: d.text },
        subject,
        effectiveDateTime: effective,
        valueQuantity: { value, unit: d.unit.unit, system: systems.ucum, code: d.unit.code },
        bodySite,
      },
    };
  });
  const reportUrl = fullUrl("DiagnosticReport", r.test.id);
  const report = {
    fullUrl: reportUrl,
    resource: {
      resourceType: "DiagnosticReport",
      id: idOf(reportUrl),
      identifier: [{ system: systems.measurementId, value: r.test.id }],
      status: "final",
      code: reportCode(`${patternLabel[r.result.pattern]} ${eyeCode(r.result.eye)}`),
      subject,
      effectiveDateTime: effective,
      issued: effective,
      result: observations.map((o) => ({ reference: o.fullUrl })),
      conclusion: conclusionOf(r),
    },
  };
  return [report, ...observations];
}

// The same entries as JSON text, built from pieces serialised once (the constant codings, units and eye structures):
// an export writes ten entries a result and JSON.stringify of each whole object was most of its time. A test keeps it
// equal, character for character, to JSON.stringify of fhirResources. Stable UUIDs are hex digits and dashes, so a
// "urn:uuid:..." string needs no escaping; everything constant between two varying values is one string.
const q = (s: string) => JSON.stringify(s);
const observationParts = indexDefinitions.map((d) => ({
  d,
  /** From the end of the id to the subject's value. */
  afterId:
    `","status":"final","category":${JSON.stringify(observationCategory)},"code":${JSON.stringify({ coding: [d.code], text: d.text })},` +
    `"subject":`,
  /** From the end of the value to the bodySite's value. */
  afterValue: `,"unit":${q(d.unit.unit)},"system":${q(systems.ucum)},"code":${q(d.unit.code)}},"bodySite":`,
}));
const bodySiteJson = [0, 1, 2].map((eye) => JSON.stringify(bodySiteOf(eye)));
const identifierSystem = q(systems.measurementId);
const reportCodeJson = new Map<string, string>();

/** JSON.stringify of each of fhirResources(r), joined by ",\n". */
export function fhirResourcesJson(r: ExportRecord): string {
  const subject = `{"reference":"${fullUrl("Patient", r.patient.id)}"}`;
  const effective = q(new Date(r.result.takenAt).toISOString());
  const eye = r.result.eye;
  const bodySite = bodySiteJson[eye] ?? JSON.stringify(bodySiteOf(eye));
  // From the subject's value to the observation's value: the same for each of this result's observations.
  const subjectToValue = `${subject},"effectiveDateTime":${effective},"valueQuantity":{"value":`;
  const observationIdPrefix = `${r.test.id}:`;
  let refs = "";
  let observations = "";
  for (const { d, afterId, afterValue } of observationParts) {
    const raw = d.value(r);
    if (raw === null || !Number.isFinite(raw)) continue;
    const uuid = stableUuid(`Observation:${observationIdPrefix}${d.key}`);
    refs += `${refs === "" ? "" : ","}{"reference":"urn:uuid:${uuid}"}`;
    observations +=
      `,\n{"fullUrl":"urn:uuid:${uuid}","resource":{"resourceType":"Observation","id":"${uuid}${afterId}${subjectToValue}` +
      `${String(round(raw, 4))}${afterValue}${bodySite}}}`;
  }
  const reportUuid = stableUuid(`DiagnosticReport:${r.test.id}`);
  const label = `${patternLabel[r.result.pattern]} ${eyeCode(eye)}`;
  let code = reportCodeJson.get(label);
  if (code === undefined) reportCodeJson.set(label, (code = JSON.stringify(reportCode(label))));
  const report =
    `{"fullUrl":"urn:uuid:${reportUuid}","resource":{"resourceType":"DiagnosticReport","id":"${reportUuid}",` +
    `"identifier":[{"system":${identifierSystem},"value":${q(r.test.id)}}],"status":"final",` +
    `"code":${code},"subject":${subject},` +
    `"effectiveDateTime":${effective},"issued":${effective},"result":[${refs}],"conclusion":${q(conclusionOf(r))}}}`;
  return report + observations;
}

/** One Bundle (type collection): each patient once, then each result's report and observations. */
export function fhirBundleWriter(sink: TextSink, now: () => Date = () => new Date()): ExportWriter {
  const seen = new Set<string>();
  let count = 0;
  const entry = (e: { fullUrl: string; resource: Json }) => (count++ === 0 ? "" : ",\n") + JSON.stringify(e);
  let opened = false;
  const open = async () => {
    if (opened) return;
    opened = true;
    await sink.write(`{"resourceType":"Bundle","type":"collection","timestamp":${JSON.stringify(now().toISOString())},"entry":[\n`);
  };
  return {
    async write(r) {
      await open();
      // One write per result: the sink gathers chunks anyway, and an await per entry costs more than the entry.
      let text = "";
      if (!seen.has(r.patient.id)) {
        seen.add(r.patient.id);
        text += entry(fhirPatient(r));
      }
      text += (count++ === 0 ? "" : ",\n") + fhirResourcesJson(r);
      await sink.write(text);
    },
    async end() {
      await open();
      await sink.write("\n]}\n");
      await sink.close();
    },
  };
}
