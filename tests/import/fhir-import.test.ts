import { describe, expect, it } from "vitest";
import { resultIdSystem } from "../../adapters/interchange/identifier-systems.ts";
import { exportContext } from "../../cli/export/context.ts";
import { fhirBundleWriter, type BundleType } from "../../cli/export/fhir.ts";
import { fullUrl, systems } from "../../cli/export/fhir-resources.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { fhirSensitivityCode, ISOPTER_FHIR_SYSTEM, readFhirBundle } from "../../core/import/fhir.ts";
import type { FileReading, ImportedField } from "../../core/import/imported-field.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { Patient } from "../../core/model/patient.ts";
import { r4Issues } from "../cli/fhir-validation.ts";
import { FAKE_ORGANISATION, memorySink, sampleMeasurement, samplePatient } from "../cli/fixtures.ts";

// Issue 29: "FHIR: a Bundle of the Eye Care IG's visual-field resources (Isopter's own export round-trips)", "npm test
// imports Isopter's own OPV and FHIR exports and gets equal values back", and "a FHIR Bundle that fails validation" is
// "refused with a line naming the file or item and the reason".
// The IG has no element for the sensitivities per location: the export writes them as an Observation of Isopter's own
// code system (core/import/fhir.ts sensitivityValue), which is what makes its bundle analysable again.

/** Parsed FHIR JSON, as the tests take it apart and break it. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, walked and edited freely
type Json = any;

const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" });
const IMPORTED_AT = "2026-02-01T10:00:00.000Z";

interface Sample {
  readonly patient: Patient;
  readonly k: number;
  readonly pattern: Pattern;
  readonly eye: Eye;
  readonly strategy: Strategy;
}

/** Results of every pattern and strategy, each with locations not seen (the value -1, or 0 for a screening). */
function records(): ExportRecord[] {
  const ann = { ...samplePatient(3), name: "Şükrü Yılmaz" } as Patient; // gender 0 (female), a Turkish name
  const bob = samplePatient(4); // male
  const cay = samplePatient(5); // other
  const samples: Sample[] = [
    { patient: ann, k: 0, pattern: Pattern.P24_2, eye: Eye.Right, strategy: Strategy.SORS },
    { patient: ann, k: 1, pattern: Pattern.P24_2, eye: Eye.Left, strategy: Strategy.Normal },
    { patient: ann, k: 2, pattern: Pattern.P30_2, eye: Eye.Right, strategy: Strategy.DS },
    { patient: bob, k: 0, pattern: Pattern.P10_2, eye: Eye.Left, strategy: Strategy.SORS_screening },
    { patient: bob, k: 1, pattern: Pattern.G, eye: Eye.Right, strategy: Strategy.Normal },
    { patient: bob, k: 2, pattern: Pattern.C40, eye: Eye.Left, strategy: Strategy.OneLevel },
    { patient: cay, k: 0, pattern: Pattern.S28, eye: Eye.Right, strategy: Strategy.Supra },
    { patient: cay, k: 1, pattern: Pattern.Esterman, eye: Eye.Binocular, strategy: Strategy.Supra },
  ];
  return samples.map((s) => {
    const m = sampleMeasurement(s.patient, s.k, { pattern: s.pattern, eye: s.eye, strategy: s.strategy });
    const screening = s.strategy === Strategy.Supra || s.strategy === Strategy.OneLevel || s.pattern === Pattern.Esterman;
    const blind = getPattern(s.pattern).blindSpotIndices;
    // Three locations not seen, as the result stores them (seen.ts): -1 for a threshold, 0 for a screening.
    const thresholds = m.result!.thresholds.map((t, i) =>
      blind.includes(i) ? t : i % 7 === 2 && i < 20 ? (screening ? 0 : -1) : screening ? (t > 0 ? 1 : 0) : t,
    );
    return exportRecord(s.patient, { ...m, result: { ...m.result!, thresholds } } as typeof m)!;
  });
}

/** The bundle the FHIR writer prints for the records, parsed. */
async function exported(rs: readonly ExportRecord[], type: BundleType = "collection"): Promise<Json> {
  const sink = memorySink();
  const writer = fhirBundleWriter(sink, { context, type, now: () => new Date("2026-01-02T03:04:05Z") });
  for (const r of rs) await writer.write(r);
  await writer.end();
  return JSON.parse(sink.text());
}

/** Isopter's FHIR export as the CLI writes it (its sensitivity Observation included, cli/export/fhir-resources.ts). */
const exportedWithSensitivities = (rs: readonly ExportRecord[], type: BundleType = "collection"): Promise<Json> => exported(rs, type);

/** A bundle from a system that writes the IG's resources but no sensitivities: Isopter's with that Observation taken out. */
async function withoutSensitivities(rs: readonly ExportRecord[]): Promise<Json> {
  const bundle = await exported(rs);
  const isSensitivity = (e: Json) => e.resource.code?.coding?.[0]?.code === fhirSensitivityCode.code;
  const gone = new Set(bundle.entry.filter(isSensitivity).map((e: Json) => e.fullUrl));
  bundle.entry = bundle.entry.filter((e: Json) => !isSensitivity(e));
  for (const e of bundle.entry)
    if (e.resource.resourceType === "DiagnosticReport") e.resource.result = e.resource.result.filter((x: Json) => !gone.has(x.reference));
  return bundle;
}

const fieldsOf = (reading: FileReading): readonly ImportedField[] => {
  if (!reading.ok) throw new Error(reading.reason);
  expect(reading.refused).toEqual([]);
  return reading.fields;
};

const refusedOf = (reading: FileReading) => {
  if (!reading.ok) throw new Error(reading.reason);
  return reading.refused;
};

describe("FHIR import (issue 29: 'FHIR: a Bundle of the Eye Care IG's visual-field resources (Isopter's own export round-trips)')", () => {
  it("'npm test imports Isopter's own ... FHIR exports and gets equal values back': patient, time, eye, pattern, strategy, every location's sensitivity (not seen too), catch trials, duration, stimuli, indices, in both bundle types", async () => {
    const rs = records();
    for (const type of ["collection", "transaction"] as const) {
      const text = JSON.stringify(await exportedWithSensitivities(rs, type));
      const fields = fieldsOf(readFhirBundle(text, "isopter.fhir.json", IMPORTED_AT));
      expect(fields).toHaveLength(rs.length);
      for (const [i, r] of rs.entries()) {
        const f = fields[i]!;
        const res = r.result;
        expect(f.item).toBe(`DiagnosticReport/${fullUrl("DiagnosticReport", r.test.id).slice("urn:uuid:".length)}`);
        expect(f.patient).toEqual({
          id: r.patient.uniqueId,
          issuer: context.patientIdSystem,
          name: r.patient.name,
          birthdate: r.patient.birthdate,
          sex: r.patient.gender,
        });
        expect(f.result.takenAt).toBe(res.takenAt); // the export writes seconds; the samples have no milliseconds
        expect([f.result.eye, f.result.pattern, f.result.strategy]).toEqual([res.eye, res.pattern, res.strategy]);
        expect(f.result.thresholds).toEqual(res.thresholds);
        expect(f.result.thresholds.filter((t) => t <= 0).length).toBeGreaterThanOrEqual(3);
        expect(f.result.catchTrials).toEqual(res.catchTrials);
        expect(f.result.examinationTimeInSeconds).toBe(res.examinationTimeInSeconds);
        expect(f.result.presentations).toBe(res.presentations);
        expect(f.result.estermanScore).toBe(res.pattern === Pattern.Esterman ? r.analysis().estermanScore : null);
        const nv = r.analysis().normative;
        // The version the MD, PSD, VFI and GHT name (Observation.method): the stored one; a screening has none of them.
        expect(f.result.normativeVersion).toBe(nv === null ? null : res.normativeVersion);
        expect(f.result.source).toMatchObject({
          kind: "imported",
          format: "fhir",
          key: `${resultIdSystem(FAKE_ORGANISATION.id)}|${r.test.id}`,
          manufacturer: "Isopter",
          model: null,
          fileName: "isopter.fhir.json",
          importedAt: IMPORTED_AT,
        });
        if (nv === null) expect(f.result.source.deviceIndices).toBeNull();
        else {
          const d = f.result.source.deviceIndices!;
          expect(d.md).toBe(Math.round(nv.global.tmd * 1e4) / 1e4);
          expect(d.psd).toBe(Math.round(nv.global.psd * 1e4) / 1e4);
          expect(d.vfi).toBe(Math.round(nv.global.vfi * 100) / 100);
          expect(d.mdProbability).toBe(nv.globalLevels.tmd <= 0.05 ? nv.globalLevels.tmd * 100 : 100);
          expect(d.ght?.toLowerCase()).toBe(nv.ght?.outcome);
          expect(d.normsName).toMatch(new RegExp(`, version ${nv.normativeVersion}$`));
        }
      }
    }
  });

  it("the sensitivity Observation is valid R4 (medplum), and the code system it is coded in is the export's own", async () => {
    expect(ISOPTER_FHIR_SYSTEM).toBe(systems.isopter);
    const bundle = await exportedWithSensitivities(records().slice(0, 1));
    const obs = bundle.entry.map((e: Json) => e.resource).find((r: Json) => r.code?.coding?.[0]?.code === fhirSensitivityCode.code);
    expect(await r4Issues(obs)).toEqual([]);
  });

  it("a bundle that carries no sensitivity per location is refused report by report, each naming what is missing", async () => {
    const rs = records().slice(0, 2);
    const refused = refusedOf(readFhirBundle(await withoutSensitivities(rs), "other.fhir.json", IMPORTED_AT));
    expect(refused).toHaveLength(2);
    for (const x of refused) {
      expect(x.item).toMatch(/^DiagnosticReport\/[0-9a-f-]{36}$/);
      expect(x.reason).toMatch(/^no sensitivities per location/);
    }
  });

  it("'a FHIR Bundle that fails validation' is 'refused with a line naming the ... item and the reason': a broken Observation refuses its report, naming the Observation", async () => {
    const rs = records().slice(0, 2);
    const bundle = await exportedWithSensitivities(rs);
    const fp = bundle.entry.find((e: Json) => e.resource.code?.coding?.[0]?.code === "400205").resource;
    fp.valueRatio.numerator.value = "2"; // a string where R4 has a decimal
    const reading = readFhirBundle(bundle, "broken.json", IMPORTED_AT);
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.fields).toHaveLength(1);
    const report = bundle.entry.find((e: Json) =>
      e.resource.result?.some((x: Json) => x.reference === bundle.entry.find((y: Json) => y.resource === fp).fullUrl),
    );
    expect(reading.refused).toEqual([
      {
        item: `DiagnosticReport/${report.resource.id}`,
        reason: expect.stringContaining(`Observation/${fp.id}: valueRatio.numerator.value`),
      },
    ]);

    // Without a status (1..1 in R4), and an Observation no report references: a line of its own.
    delete fp.status;
    const stray = structuredClone(fp);
    stray.id = "stray";
    bundle.entry.push({ fullUrl: "urn:uuid:00000000-0000-5000-8000-000000000001", resource: stray });
    const again = refusedOf(readFhirBundle(bundle, "broken.json", IMPORTED_AT));
    expect(again.map((x) => x.item)).toEqual([`DiagnosticReport/${report.resource.id}`, "Observation/stray"]);
    expect(again[1]!.reason).toMatch(/status/);
  });

  it("'an unknown pattern' is refused naming the report: a CID 4250 pattern Isopter lacks, or a name that is none of its patterns", async () => {
    const bundle = await exportedWithSensitivities(records().slice(0, 1));
    const report = bundle.entry.find((e: Json) => e.resource.resourceType === "DiagnosticReport").resource;
    const sens = bundle.entry.find((e: Json) => e.resource.code?.coding?.[0]?.code === fhirSensitivityCode.code).resource;
    sens.component[0].valueCodeableConcept = {
      coding: [{ system: "http://dicom.nema.org/resources/ontology/DCM", code: "111807", display: "Visual Field 60-4 Test Pattern" }],
    };
    expect(refusedOf(readFhirBundle(bundle, "x.json", IMPORTED_AT))).toEqual([
      {
        item: `DiagnosticReport/${report.id}`,
        reason: "unknown pattern: Visual Field 60-4 Test Pattern (DCM 111807) is not a pattern Isopter has",
      },
    ]);
    sens.component.shift(); // no coded pattern: the report's text names it
    report.code.text = "Perimetry 24-2C OD";
    expect(refusedOf(readFhirBundle(bundle, "x.json", IMPORTED_AT))[0]!.reason).toMatch(
      /^unknown pattern: "Perimetry 24-2C OD" names no pattern/,
    );
    report.code.text = "Perimetry 24-2 OD";
    expect(fieldsOf(readFhirBundle(bundle, "x.json", IMPORTED_AT))[0]!.result.pattern).toBe(Pattern.P24_2);
  });

  it("a reference that resolves to nothing refuses the report, naming the reference", async () => {
    const bundle = await exportedWithSensitivities(records().slice(0, 1));
    bundle.entry = bundle.entry.filter((e: Json) => e.resource.resourceType !== "Patient");
    const [x] = refusedOf(readFhirBundle(bundle, "x.json", IMPORTED_AT));
    expect(x!.reason).toMatch(/^subject urn:uuid:[0-9a-f-]{36} resolves to nothing in the bundle$/);
  });

  it("JSON that is not a Bundle, or no JSON at all, is unreadable with the reason", () => {
    expect(readFhirBundle({ resourceType: "Patient", id: "x" }, "p.json", IMPORTED_AT)).toEqual({
      ok: false,
      reason: "not an FHIR Bundle: it is a Patient",
    });
    expect(readFhirBundle([1, 2], "a.json", IMPORTED_AT)).toEqual({ ok: false, reason: "not an FHIR Bundle: the JSON is not an object" });
    const notJson = readFhirBundle("{ resourceType: Bundle", "t.json", IMPORTED_AT);
    expect(notJson.ok).toBe(false);
    expect(!notJson.ok && notJson.reason).toMatch(/^not JSON: /);
    expect(readFhirBundle({ resourceType: "Bundle", type: "history", entry: [] }, "h.json", IMPORTED_AT)).toMatchObject({ ok: false });
    expect(readFhirBundle({ resourceType: "Bundle", type: "collection", entry: [] }, "e.json", IMPORTED_AT)).toEqual({
      ok: true,
      fields: [],
      refused: [],
    });
  });

  it("another system's valid Bundle reads: relative references, given and family names, the IG's laterality, a Device, duration in minutes, 'L' as not seen, an unknown strategy kept by name", () => {
    const n = getPattern(Pattern.P24_2).points.length;
    const data = Array.from({ length: n }, (_, i) => (i === 5 ? "L" : String(20 + (i % 10)))).join(" ");
    const ig = "http://hl7.org/fhir/uv/ophthalmology/CodeSystem/visual-field-observations";
    const obs = (id: string, code: object, value: object) => ({
      fullUrl: `https://fhir.example.org/r4/Observation/${id}`,
      resource: {
        resourceType: "Observation",
        id,
        status: "final",
        code,
        subject: { reference: "Patient/p1" },
        device: { reference: "Device/hfa" },
        ...value,
      },
    });
    const bundle = {
      resourceType: "Bundle",
      type: "searchset",
      entry: [
        {
          fullUrl: "https://fhir.example.org/r4/DiagnosticReport/vf1",
          resource: {
            resourceType: "DiagnosticReport",
            id: "vf1",
            identifier: [{ system: "urn:oid:1.2.3.4", value: "VF-77" }],
            extension: [
              {
                url: "http://hl7.org/fhir/uv/ophthalmology/StructureDefinition/laterality",
                valueCodeableConcept: { coding: [{ system: "http://snomed.info/sct", code: "7771000", display: "Left" }] },
              },
            ],
            status: "final",
            code: {
              coding: [
                { system: "http://snomed.info/sct", code: "103752008" },
                { system: "http://dicom.nema.org/resources/ontology/DCM", code: "111800", display: "Visual Field 24-2 Test Pattern" },
              ],
              text: "Perimetry",
            },
            subject: { reference: "Patient/p1" },
            effectiveDateTime: "2019-03-26T12:55:26-07:00",
            result: [{ reference: "Observation/fl" }, { reference: "Observation/dur" }, { reference: "Observation/sens" }],
          },
        },
        {
          fullUrl: "https://fhir.example.org/r4/Patient/p1",
          resource: {
            resourceType: "Patient",
            id: "p1",
            identifier: [{ system: "https://hospital.example.org/mrn", value: "M-123" }],
            name: [{ family: "Wagner", given: ["Felix", "Maria"] }],
            gender: "male",
            birthDate: "1950-04-02",
          },
        },
        obs("fl", { coding: [{ system: ig, code: "400204" }] }, { valueRatio: { numerator: { value: 1 }, denominator: { value: 15 } } }),
        obs(
          "dur",
          { coding: [{ system: "http://snomed.info/sct", code: "252129004" }] },
          { valueQuantity: { value: 6.5, unit: "min", code: "min" } },
        ),
        obs(
          "sens",
          { coding: [fhirSensitivityCode] },
          {
            valueSampledData: { origin: { value: 0 }, period: 0, dimensions: 1, data },
            component: [
              {
                code: { coding: [{ system: ISOPTER_FHIR_SYSTEM, code: "test-strategy" }] },
                valueCodeableConcept: { text: "SITA Standard" },
              },
            ],
          },
        ),
        {
          fullUrl: "https://fhir.example.org/r4/Device/hfa",
          resource: {
            resourceType: "Device",
            id: "hfa",
            manufacturer: "Carl Zeiss Meditec",
            deviceName: [{ name: "HFA3 860", type: "model-name" }],
            serialNumber: "860-1234",
          },
        },
      ],
    };
    const [f] = fieldsOf(readFhirBundle(bundle, "hfa.json", IMPORTED_AT));
    expect(f!.item).toBe("DiagnosticReport/vf1");
    expect(f!.patient).toEqual({
      id: "M-123",
      issuer: "https://hospital.example.org/mrn",
      name: "Felix Maria Wagner",
      birthdate: "1950-04-02",
      sex: 1,
    });
    expect(f!.result).toMatchObject({
      takenAt: "2019-03-26T19:55:26.000Z",
      eye: Eye.Left,
      pattern: Pattern.P24_2,
      strategy: Strategy.Undefined,
      examinationTimeInSeconds: 390,
      catchTrials: { blindSpot: { errors: 1, presentations: 15 }, falsePositive: { errors: 0, presentations: 0 } },
      normativeVersion: null,
    });
    expect(f!.result.thresholds[5]).toBe(-1);
    expect(f!.result.thresholds[6]).toBe(26);
    expect(f!.result.source).toMatchObject({
      key: "urn:oid:1.2.3.4|VF-77",
      manufacturer: "Carl Zeiss Meditec",
      model: "HFA3 860",
      serial: "860-1234",
      patternName: "Visual Field 24-2 Test Pattern",
      strategyName: "SITA Standard",
      deviceIndices: null,
    });
  });
});
