import { describe, expect, it } from "vitest";
import { Schema } from "effect";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { fhirBundleWriter, fhirResources, fhirResourcesJson, MD_SNOMED, REPORT_LOINC, systems } from "../../cli/export/fhir.ts";
import { BundleSchema, DiagnosticReportSchema, ObservationSchema } from "../../cli/export/fhir-schema.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { stableUuid } from "../../cli/export/stable-id.ts";
import { fakeApi, memorySink, sampleMeasurement, samplePatient } from "./fixtures.ts";

const strict = { onExcessProperty: "error" } as const;

async function bundleOf(patients: number, perPatient: number) {
  const sink = memorySink();
  await runExport(fakeApi({ patients, resultsPerPatient: perPatient }), { kind: "organisation" }, { reliableOnly: false }, fhirBundleWriter(sink, () => new Date("2026-01-02T03:04:05Z")));
  return JSON.parse(sink.text());
}

describe("FHIR R4 export", () => {
  it("the bundle parses against our R4 Schema (no unknown elements)", async () => {
    const json = await bundleOf(3, 4);
    const bundle = Schema.decodeUnknownSync(BundleSchema)(json, strict);
    expect(bundle.type).toBe("collection");
    const kinds = bundle.entry.map((e) => e.resource.resourceType);
    expect(kinds.filter((k) => k === "Patient")).toHaveLength(3);
    expect(kinds.filter((k) => k === "DiagnosticReport")).toHaveLength(12);
  });

  it("every report reference resolves to an Observation in the bundle, and the subject to a Patient", async () => {
    const bundle = Schema.decodeUnknownSync(BundleSchema)(await bundleOf(2, 3), strict);
    const byUrl = new Map(bundle.entry.map((e) => [e.fullUrl, e.resource]));
    for (const e of bundle.entry) {
      if (e.resource.resourceType !== "DiagnosticReport") continue;
      expect(byUrl.get(e.resource.subject.reference)?.resourceType).toBe("Patient");
      expect(e.resource.result.length).toBeGreaterThanOrEqual(7);
      for (const ref of e.resource.result) expect(byUrl.get(ref.reference)?.resourceType).toBe("Observation");
    }
    expect(new Set(bundle.entry.map((e) => e.fullUrl)).size).toBe(bundle.entry.length);
  });

  it("a DiagnosticReport (LOINC 28629-4) with MD (SNOMED 422859007, dB), PSD, duration, FL and FP ratios, laterality", () => {
    const p = samplePatient(5);
    const r = exportRecord(p, sampleMeasurement(p, 1, { eye: Eye.Left }))!;
    const [report, ...obs] = fhirResources(r);
    const dr = Schema.decodeUnknownSync(DiagnosticReportSchema)(report!.resource, strict);
    expect(dr.code.coding[0]).toEqual({ system: systems.loinc, code: REPORT_LOINC });
    const observations = obs.map((o) => Schema.decodeUnknownSync(ObservationSchema)(o.resource, strict));
    const byCode = (code: string) => observations.find((o) => o.code.coding[0]!.code === code)!;
    const g = r.analysis().normative!.global;
    const md = byCode(MD_SNOMED);
    expect(md.code.coding[0]!.system).toBe(systems.snomed);
    expect(md.valueQuantity).toEqual({ value: Math.round(g.tmd * 1e4) / 1e4, unit: "dB", system: systems.ucum, code: "dB" });
    expect(byCode("psd").valueQuantity.value).toBeCloseTo(g.psd, 4);
    expect(byCode("252129004").valueQuantity).toMatchObject({ value: r.result.examinationTimeInSeconds, code: "s" });
    expect(byCode("400204").valueQuantity.value).toBeCloseTo(1 / 12, 4);
    expect(byCode("400205").valueQuantity.value).toBeCloseTo(r.result.catchTrials.falsePositive.errors / 10, 4);
    for (const o of observations) expect(o.bodySite.coding[0]).toMatchObject({ system: systems.snomed, code: "8966001" });
  });

  it("without a normative database the MD and PSD observations are left out, not invented", () => {
    const p = samplePatient(5);
    const r = exportRecord(p, sampleMeasurement(p, 1, { pattern: Pattern.S28 }))!;
    const codes = fhirResources(r).slice(1).map((o) => (o.resource as { code: { coding: Array<{ code: string }> } }).code.coding[0]!.code);
    expect(codes).not.toContain(MD_SNOMED);
    expect(codes).not.toContain("psd");
    expect(codes).toContain("252129004");
  });

  it("the same result exported twice gets the same fullUrls (receivers de-duplicate)", () => {
    const p = samplePatient(5);
    const a = fhirResources(exportRecord(p, sampleMeasurement(p, 2))!).map((e) => e.fullUrl);
    const b = fhirResources(exportRecord(p, sampleMeasurement(p, 2))!).map((e) => e.fullUrl);
    expect(a).toEqual(b);
  });

  it("the Schema rejects a misspelt element, a missing status and a bad reference", () => {
    const p = samplePatient(5);
    const obs = fhirResources(exportRecord(p, sampleMeasurement(p, 1))!)[1]!.resource as Record<string, unknown>;
    const decode = (u: unknown) => Schema.decodeUnknownExit(ObservationSchema)(u, strict)._tag;
    expect(decode(obs)).toBe("Success");
    const { valueQuantity, ...rest } = obs;
    expect(decode({ ...rest, valueQuantiy: valueQuantity })).toBe("Failure");
    const { status: _s, ...noStatus } = obs;
    expect(decode(noStatus)).toBe("Failure");
    expect(decode({ ...obs, subject: { reference: "Patient/has spaces" } })).toBe("Failure");
  });

  it("an empty export is still a valid bundle", async () => {
    const bundle = Schema.decodeUnknownSync(BundleSchema)(await bundleOf(0, 0), strict);
    expect(bundle.entry).toEqual([]);
  });
});

describe("FHIR JSON text", () => {
  it("the writer's pre-serialised entries are JSON.stringify of fhirResources, character for character", () => {
    // Patients and results of every kind the fixtures make: both eyes, reliable or not, with and without normative data.
    for (let i = 0; i < 30; i++) {
      const p = samplePatient(i);
      for (let k = 0; k < 4; k++) {
        const r = exportRecord(p, sampleMeasurement(p, k, { eye: ([Eye.Right, Eye.Left, Eye.Both] as const)[(i + k) % 3], falsePositives: (i * k) % 5, reliable: k !== 2 }))!;
        expect(fhirResourcesJson(r)).toBe(fhirResources(r).map((e) => JSON.stringify(e)).join(",\n"));
      }
    }
    // No normative version recorded, and ids that need escaping.
    const p = { ...samplePatient(7), id: 'p"7\\' };
    const m = sampleMeasurement(p, 1);
    const bare = exportRecord(p, { ...m, id: 'm"1', result: { ...m.result!, normativeVersion: null } })!;
    expect(fhirResourcesJson(bare)).toBe(fhirResources(bare).map((e) => JSON.stringify(e)).join(",\n"));
  });
});

describe("stable ids", () => {
  it("name-based UUIDs (version 5, RFC 4122 variant) stay what earlier exports wrote", () => {
    // Values from the first implementation (createHash): receivers de-duplicate on them, so they must never change.
    expect(stableUuid("Patient:p00001")).toBe("836a7dac-7fb1-5bc7-a101-a4d52af081b6");
    expect(stableUuid("Observation:m1:md")).toBe("0ab8a437-4010-56cc-b9ac-df3bc57e030f");
    for (let i = 0; i < 200; i++) expect(stableUuid(`DiagnosticReport:m${i}`)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
