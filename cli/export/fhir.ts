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

interface IndexValue {
  readonly key: string;
  readonly code: { system: string; code: string; display?: string };
  readonly text: string;
  readonly value: number | null;
  readonly unit: { unit: string; code: string };
}

function indexValues(r: ExportRecord): IndexValue[] {
  const a = r.analysis();
  const g = a.normative?.global;
  const rel = a.reliability;
  const dB = { unit: "dB", code: "dB" };
  const ratio = { unit: "ratio", code: "1" };
  return [
    { key: "md", code: coding(systems.snomed, MD_SNOMED, "Mean deviation of visual field"), text: "Mean deviation (MD)", value: g?.tmd ?? null, unit: dB },
    { key: "psd", code: coding(systems.isopter, "psd", "Pattern standard deviation"), text: "Pattern standard deviation (PSD)", value: g?.psd ?? null, unit: dB },
    { key: "vfi", code: coding(systems.dicom, "111852", "Visual Field Index"), text: "Visual field index (VFI)", value: g?.vfi ?? null, unit: { unit: "%", code: "%" } },
    { key: "ms", code: coding(systems.isopter, "ms", "Mean sensitivity"), text: "Mean sensitivity", value: g?.msens ?? a.octopus?.ms ?? null, unit: dB },
    { key: "duration", code: coding(systems.snomed, "252129004", "Test duration"), text: "Test duration", value: r.result.examinationTimeInSeconds, unit: { unit: "s", code: "s" } },
    { key: "fl", code: coding(systems.eyecare, "400204", "Fixation loss"), text: "Fixation-loss ratio", value: rel.fixationLossRate, unit: ratio },
    { key: "fpr", code: coding(systems.eyecare, "400205", "False positive ratio"), text: "False-positive ratio", value: rel.falsePositiveRate, unit: ratio },
    { key: "fnr", code: coding(systems.eyecare, "400206", "False negative ratio"), text: "False-negative ratio", value: rel.falseNegativeRate, unit: ratio },
  ];
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The report and its observations for one result; the patient is referenced by fullUrl. */
export function fhirResources(r: ExportRecord): Array<{ fullUrl: string; resource: Json }> {
  const subject = { reference: fullUrl("Patient", r.patient.id) };
  const effective = new Date(r.result.takenAt).toISOString();
  const bodySite = bodySiteOf(r.result.eye);
  const observations = indexValues(r)
    .filter((v) => v.value !== null && Number.isFinite(v.value))
    .map((v) => {
      const url = fullUrl("Observation", `${r.measurement.id}:${v.key}`);
      return {
        fullUrl: url,
        resource: {
          resourceType: "Observation",
          id: idOf(url),
          status: "final",
          category: [{ coding: [coding(systems.observationCategory, "exam", "Exam")] }],
          code: { coding: [v.code], text: v.text },
          subject,
          effectiveDateTime: effective,
          valueQuantity: { value: round(v.value!, 4), unit: v.unit.unit, system: systems.ucum, code: v.unit.code },
          bodySite,
        },
      };
    });
  const label = `${patternLabel[r.result.pattern]} ${eyeCode(r.result.eye)}`;
  const rel = r.analysis().reliability;
  const reportUrl = fullUrl("DiagnosticReport", r.measurement.id);
  const report = {
    fullUrl: reportUrl,
    resource: {
      resourceType: "DiagnosticReport",
      id: idOf(reportUrl),
      identifier: [{ system: systems.measurementId, value: r.measurement.id }],
      status: "final",
      code: { coding: [coding(systems.loinc, REPORT_LOINC), coding(systems.snomed, "103752008", "Perimetry")], text: `Perimetry ${label}` },
      subject,
      effectiveDateTime: effective,
      issued: effective,
      result: observations.map((o) => ({ reference: o.fullUrl })),
      conclusion: rel.reliable && r.measurement.reliable ? "Reliable test." : `Unreliable test${rel.problems.length ? `: ${rel.problems.join(", ")}` : " (marked by a clinician)"}.`,
    },
  };
  return [report, ...observations];
}

/** One Bundle (type collection): each patient once, then each result's report and observations. */
export function fhirBundleWriter(sink: TextSink, now: () => Date = () => new Date()): ExportWriter {
  const seen = new Set<string>();
  let count = 0;
  const entry = (e: { fullUrl: string; resource: Json }) => sink.write((count++ === 0 ? "" : ",\n") + JSON.stringify(e));
  let opened = false;
  const open = async () => {
    if (opened) return;
    opened = true;
    await sink.write(`{"resourceType":"Bundle","type":"collection","timestamp":${JSON.stringify(now().toISOString())},"entry":[\n`);
  };
  return {
    async write(r) {
      await open();
      if (!seen.has(r.patient.id)) {
        seen.add(r.patient.id);
        await entry(fhirPatient(r));
      }
      for (const e of fhirResources(r)) await entry(e);
    },
    async end() {
      await open();
      await sink.write("\n]}\n");
      await sink.close();
    },
  };
}
