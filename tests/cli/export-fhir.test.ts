import { describe, expect, it } from "vitest";
import { Schema } from "effect";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { defaultPatientIdSystem, resultIdSystem } from "../../adapters/interchange/identifier-systems.ts";
import { exportContext } from "../../cli/export/context.ts";
import { bundleEntry, fhirBundleWriter, type BundleType } from "../../cli/export/fhir.ts";
import { fhirPatient, fhirResources, MD_SNOMED, PSD_SNOMED, REPORT_LOINC, seenOfTested, systems } from "../../cli/export/fhir-resources.ts";
import { DEFAULT_NORMATIVE_VERSION, normativeTableName } from "../../core/analytics/normative/registry.ts";
import { FAKE_USER, startFakeBackend } from "./fake-backend.ts";
import { isopter, tempHome } from "./harness.ts";
import { BundleSchema, DiagnosticReportSchema, ObservationSchema } from "../../core/import/fhir-schema.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { patientSeries } from "../../cli/export/progression.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { stableUuid } from "../../adapters/interchange/stable-id.ts";
import { IG, observationProfileIssues, r4Issues, reportProfileIssues } from "./fhir-validation.ts";
import { FAKE_ORGANISATION, fakeApi, memorySink, sampleMeasurement, samplePatient } from "./fixtures.ts";

const strict = { onExcessProperty: "error" } as const;
const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" });
const fakePdf = async (r: ExportRecord) => new TextEncoder().encode(`%PDF-1.7 ${r.test.id}`);

async function bundleOf(patients: number, perPatient: number, type: BundleType = "collection", pdf = false) {
  const sink = memorySink();
  const writer = fhirBundleWriter(sink, { context, type, ...(pdf ? { pdf: fakePdf } : {}), now: () => new Date("2026-01-02T03:04:05Z") });
  await runExport(fakeApi({ patients, resultsPerPatient: perPatient }), { kind: "organisation" }, { reliableOnly: false }, writer);
  return JSON.parse(sink.text());
}

/** Every resource of a bundle through medplum, and the IG profile checks for those that claim a profile. */
async function validateBundle(bundle: any): Promise<string[]> {
  const byUrl = new Map<string, any>(bundle.entry.map((e: any) => [e.fullUrl, e.resource]));
  const issues = (await r4Issues(bundle)).map((i) => `Bundle: ${i}`);
  for (const e of bundle.entry) {
    const r = e.resource;
    issues.push(...(await r4Issues(r)).map((i) => `${r.resourceType} ${e.fullUrl}: ${i}`));
    if (r.meta?.profile?.includes(IG.report)) issues.push(...reportProfileIssues(r, byUrl).map((i) => `${e.fullUrl}: ${i}`));
    if (r.meta?.profile?.includes(IG.observation)) issues.push(...observationProfileIssues(r, byUrl).map((i) => `${e.fullUrl}: ${i}`));
  }
  return issues;
}

describe("FHIR R4 export after the Eye Care IG", () => {
  it("the writer prints each entry as JSON.stringify prints the resources (reports and observations come from printed pieces), in both bundle types, with and without the printed page", async () => {
    // A stand-in page per result (its bytes name the result): presentedForm must carry each result's own.
    const page = async (r: ExportRecord) => new TextEncoder().encode(`%PDF ${r.test.id} "quoted" \u00e9`);
    for (const [type, pdf] of [
      ["collection", undefined],
      ["transaction", undefined],
      ["transaction", page],
    ] as const) {
      const sink = memorySink();
      const now = new Date("2026-01-02T03:04:05Z");
      const writer = fhirBundleWriter(sink, { context, type, now: () => now, ...(pdf ? { pdf } : {}) });
      const expected: string[] = [];
      const seen = new Set<string>();
      // The eye's latest result on a pattern carries its progression criteria, as the JSON export's (patientSeries).
      const reference = patientSeries(async (r, progression) => {
        if (!seen.has(r.patient.id)) expected.push(JSON.stringify(bundleEntry(fhirPatient(r, context), type)));
        seen.add(r.patient.id);
        for (const e of fhirResources(r, context, pdf ? await pdf(r) : null, progression?.analysis))
          expected.push(JSON.stringify(bundleEntry(e, type)));
      });
      // Twelve patients, five results each: normal and abnormal indices (with their p), every GHT outcome seen, catch trials or none.
      await runExport(
        fakeApi({ patients: 12, resultsPerPatient: 5 }),
        { kind: "organisation" },
        { reliableOnly: false },
        {
          write: async (r) => {
            await reference.add(r);
            await writer.write(r);
          },
          end: async () => {
            await reference.flush();
            await writer.end();
          },
        },
      );
      expect(sink.text()).toBe(
        `{"resourceType":"Bundle","type":"${type}","timestamp":"${now.toISOString()}","entry":[\n${expected.join(",\n")}\n]}\n`,
      );
      expect(sink.text()).toContain("interpretation");
      expect(sink.text()).toContain("progression-reading");
    }
  });

  it("the bundle parses against our Schema (no unknown elements), and medplum and the IG profile checks find nothing", async () => {
    const json = await bundleOf(3, 4, "collection", true);
    const bundle = Schema.decodeUnknownSync(BundleSchema)(json, strict);
    expect(bundle.type).toBe("collection");
    const kinds = bundle.entry.map((e) => e.resource.resourceType);
    expect(kinds.filter((k) => k === "Patient")).toHaveLength(3);
    expect(kinds.filter((k) => k === "DiagnosticReport")).toHaveLength(12);
    expect(await validateBundle(json)).toEqual([]);
  });

  it("the validators are not blind: a report without the ophthalmology category, a bare-ratio FP and a made-up PSD code are caught", async () => {
    const json = await bundleOf(1, 1);
    const byUrl = new Map<string, any>(json.entry.map((e: any) => [e.fullUrl, e.resource]));
    const report = json.entry.find((e: any) => e.resource.resourceType === "DiagnosticReport").resource;
    expect(reportProfileIssues({ ...report, category: [{ coding: [{ system: "http://x.org", code: "1" }] }] }, byUrl)).toEqual([
      "category.coding:ophthalCode (SNOMED 394594003): 0, must be 1",
    ]);
    const obs = json.entry.map((e: any) => e.resource).filter((r: any) => r.resourceType === "Observation");
    const psd = obs.find((o: any) => o.code.coding[0].code === PSD_SNOMED);
    expect(observationProfileIssues({ ...psd, code: { coding: [{ system: "https://isopter.invalid/cs", code: "psd" }] } }, byUrl)).toEqual([
      "code https://isopter.invalid/cs|psd is not in observation-visual-field",
    ]);
    const fp = obs.find((o: any) => o.code.coding[0].code === "400205");
    expect((await r4Issues({ ...fp, valueRatio: { numerator: { value: "2" } } })).join()).toMatch(/expected number/);
    expect(await r4Issues({ ...fp, status: undefined })).not.toEqual([]);
  });

  it("a DiagnosticReport of the IG's visual-field profile: category, SNOMED 103752008 beside LOINC 28629-4, meta.profile, the result id in the organisation's namespace", () => {
    const p = samplePatient(5);
    const r = exportRecord(p, sampleMeasurement(p, 1, { eye: Eye.Left }))!;
    const [report] = fhirResources(r, context);
    const dr = Schema.decodeUnknownSync(DiagnosticReportSchema)(report!.resource, strict);
    expect(dr.meta.profile).toEqual([IG.report]);
    expect(dr.category[0]!.coding[0]).toMatchObject({ system: systems.snomed, code: "394594003" });
    expect(dr.code.coding.map((c) => c.code)).toEqual(["103752008", REPORT_LOINC]);
    expect(dr.identifier).toEqual([{ system: resultIdSystem(FAKE_ORGANISATION.id), value: r.test.id }]);
    expect(dr.identifier[0]!.system).toMatch(/^urn:oid:2\.25\.\d+\.2$/);
  });

  it("MD (SNOMED 422859007) and PSD (SNOMED 421362004) in dB, with 'p < x %' where outside normal limits; reliability as numerator / denominator", () => {
    const p = samplePatient(5);
    const r = exportRecord(p, sampleMeasurement(p, 3, { eye: Eye.Left }))!;
    const observations = fhirResources(r, context)
      .slice(1)
      .map((o) => Schema.decodeUnknownSync(ObservationSchema)(o.resource, strict));
    const byCode = (code: string) => observations.find((o) => o.code.coding[0]!.code === code)!;
    const nv = r.analysis().normative!;
    expect(byCode(MD_SNOMED).valueQuantity).toEqual({
      value: Math.round(nv.global.tmd * 1e4) / 1e4,
      unit: "dB",
      system: systems.ucum,
      code: "dB",
    });
    expect(byCode(PSD_SNOMED).valueQuantity!.value).toBeCloseTo(nv.global.psd, 4);
    const mdLevel = nv.globalLevels.tmd;
    if (mdLevel <= 0.05) expect(byCode(MD_SNOMED).interpretation![0]!.text).toBe(`p < ${mdLevel * 100} %`);
    else expect(byCode(MD_SNOMED).interpretation).toBeUndefined();
    expect(byCode("252129004").valueQuantity).toMatchObject({ value: r.result.examinationTimeInSeconds, code: "s" });
    expect(byCode("400204").valueRatio).toEqual({ numerator: { value: 1 }, denominator: { value: 12 } });
    expect(byCode("400205").valueRatio).toEqual({
      numerator: { value: r.result.catchTrials.falsePositive.errors },
      denominator: { value: 10 },
    });
    expect(byCode("111852").valueQuantity!.value).toBeCloseTo(nv.global.vfi, 2);
    expect(byCode("111852").meta).toBeUndefined(); // VFI's code is not in the IG's value set: no profile claimed
    // Each index read against normals names the normative database and its version (once); the others do not.
    const table = normativeTableName(r.result.pattern, r.result.normativeVersion)!;
    expect(nv.database).toBe(`${table} · ${nv.normativeVersion}`);
    const method = { text: `Normative database: ${table}, version ${nv.normativeVersion}` };
    for (const code of [MD_SNOMED, PSD_SNOMED, "111852"]) expect(byCode(code).method).toEqual(method);
    expect(byCode("252129004").method).toBeUndefined();
    expect(nv.normativeVersion).toBe(r.result.normativeVersion);
    const report = fhirResources(r, context)[0]!.resource as { conclusion: string };
    expect(report.conclusion).toContain(`normative database ${table}, version ${nv.normativeVersion}.`);
    for (const o of observations) expect(o.bodySite.coding[0]).toMatchObject({ system: systems.snomed, code: "8966001" });
  });

  it("times carry the clinic's offset (Europe/Berlin: +01:00 in winter, +02:00 in summer)", () => {
    const p = samplePatient(5);
    const winter = fhirResources(exportRecord(p, sampleMeasurement(p, 1, { takenAt: "2024-01-15T09:30:00.000Z" }))!, context)[0]!.resource;
    const summer = fhirResources(exportRecord(p, sampleMeasurement(p, 1, { takenAt: "2024-07-15T09:30:00.000Z" }))!, context)[0]!.resource;
    expect(winter.effectiveDateTime).toBe("2024-01-15T10:30:00+01:00");
    expect(summer.effectiveDateTime).toBe("2024-07-15T11:30:00+02:00");
  });

  it("the patient's record number under the organisation's identifier system (an OID unless one is configured)", async () => {
    const bundle = await bundleOf(1, 1);
    const patient = bundle.entry[0].resource;
    expect(patient.identifier[0]).toMatchObject({
      system: defaultPatientIdSystem(FAKE_ORGANISATION.id),
      value: samplePatient(0).uniqueId,
      type: { coding: [{ code: "MR" }] },
    });
    const own = exportContext(FAKE_ORGANISATION, { timeZone: "UTC", patientIdSystem: "https://clinic.example.org/fhir/sid/mrn" });
    const sink = memorySink();
    await runExport(
      fakeApi({ patients: 1, resultsPerPatient: 1 }),
      { kind: "organisation" },
      { reliableOnly: false },
      fhirBundleWriter(sink, { context: own }),
    );
    expect(JSON.parse(sink.text()).entry[0].resource.identifier[0].system).toBe("https://clinic.example.org/fhir/sid/mrn");
  });

  it("the printed page rides along as presentedForm (application/pdf, base64)", async () => {
    const bundle = await bundleOf(1, 2, "collection", true);
    const reports = bundle.entry.filter((e: any) => e.resource.resourceType === "DiagnosticReport");
    for (const e of reports) {
      const form = e.resource.presentedForm[0];
      expect(form.contentType).toBe("application/pdf");
      expect(Buffer.from(form.data, "base64").toString()).toMatch(/^%PDF-1\.7 p00000-m\d$/);
    }
  });

  it("--bundle transaction: patients by conditional update on their identifier, the rest by PUT on stable ids; still valid", async () => {
    const bundle = await bundleOf(2, 2, "transaction");
    expect(bundle.type).toBe("transaction");
    const patient = bundle.entry[0];
    expect(patient.resource.id).toBeUndefined();
    expect(patient.request).toEqual({
      method: "PUT",
      url: `Patient?identifier=${encodeURIComponent(`${defaultPatientIdSystem(FAKE_ORGANISATION.id)}|${samplePatient(0).uniqueId}`)}`,
    });
    for (const e of bundle.entry.slice(1).filter((x: any) => x.resource.resourceType !== "Patient"))
      expect(e.request).toEqual({ method: "PUT", url: `${e.resource.resourceType}/${e.resource.id}` });
    expect(await validateBundle(bundle)).toEqual([]);
  });

  it("a screening and an Esterman result give their locations seen of those tested (Esterman with its score); no MD, PSD or VFI; valid", async () => {
    const p = samplePatient(5);
    for (const o of [
      { pattern: Pattern.S28, strategy: Strategy.Supra },
      { pattern: Pattern.Esterman, strategy: Strategy.OneLevel, eye: Eye.Binocular },
    ]) {
      const r = exportRecord(p, sampleMeasurement(p, 1, o))!;
      const entries = fhirResources(r, context);
      const observations = entries.slice(1).map((e) => Schema.decodeUnknownSync(ObservationSchema)(e.resource, strict));
      const codes = observations.map((x) => x.code.coding[0]!.code);
      expect(codes).not.toContain(MD_SNOMED);
      expect(codes).not.toContain(PSD_SNOMED);
      expect(codes).not.toContain("111852");
      expect(codes).toContain("252129004");
      const seen = observations.find((x) => x.code.coding[0]!.code === "seen-of-tested")!;
      expect(seen.code.coding[0]!.system).toMatch(/^urn:oid:2\.25\.\d+$/);
      const { seen: n, tested } = seenOfTested(r);
      expect(tested).toBe(o.pattern === Pattern.Esterman ? 120 : 28);
      expect(n).toBeGreaterThan(0);
      expect(seen.valueRatio).toEqual({ numerator: { value: n }, denominator: { value: tested } });
      if (o.pattern === Pattern.Esterman)
        expect(seen.component).toEqual([
          expect.objectContaining({ valueQuantity: expect.objectContaining({ value: r.analysis().estermanScore, code: "%" }) }),
        ]);
      else expect(seen.component).toBeUndefined();
      for (const e of entries) expect(await r4Issues(e.resource)).toEqual([]);
    }
  });

  it("a threshold result without a normative database: MD, PSD, VFI and GHT left out, the report says so, and the export warns naming the result", async () => {
    const p = samplePatient(5);
    // A 30-2 taken under the older default version, which has no 30-2 tables.
    const r = exportRecord(
      p,
      sampleMeasurement(p, 1, { pattern: Pattern.P30_2, strategy: Strategy.DS, normativeVersion: DEFAULT_NORMATIVE_VERSION }),
    )!;
    expect(r.analysis().normative).toBeNull();
    const entries = fhirResources(r, context);
    const codes = entries.slice(1).map((e) => (e.resource as { code: { coding: Array<{ code: string }> } }).code.coding[0]!.code);
    for (const left of [MD_SNOMED, PSD_SNOMED, "111852", "111855", "seen-of-tested"]) expect(codes).not.toContain(left);
    expect((entries[0]!.resource as { conclusion: string }).conclusion).toContain(
      "No normative database for 30-2: no MD, PSD, VFI or GHT.",
    );
    const warnings: string[] = [];
    const writer = fhirBundleWriter(memorySink(), { context, warn: (w, m) => warnings.push(`${w.test.id}: ${m}`) });
    await writer.write(r);
    await writer.write(exportRecord(p, sampleMeasurement(p, 2))!); // with normals: no warning
    await writer.end();
    expect(warnings).toEqual([
      `${r.test.id}: no normative database for 30-2 (version ${DEFAULT_NORMATIVE_VERSION}): the MD, PSD, VFI and GHT Observations are left out`,
    ]);
    for (const e of entries) expect(await r4Issues(e.resource)).toEqual([]);
  });

  it("isopter export --format fhir writes that warning on stderr, naming the result and its patient, and exits 0", async () => {
    const backend = await startFakeBackend({
      patients: 1,
      resultsPerPatient: 2,
      options: (_, k) => (k === 0 ? { pattern: Pattern.P30_2, strategy: Strategy.DS, normativeVersion: DEFAULT_NORMATIVE_VERSION } : {}),
    });
    try {
      const home = tempHome();
      const login = await isopter(["login", "--server", backend.url, "-u", FAKE_USER.username, "--password-stdin"], {
        env: { ISOPTER_HOME: home },
        stdin: `${FAKE_USER.password}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      const run = await isopter(["export", "--all", "--format", "fhir"], {
        env: { ISOPTER_HOME: home, ISOPTER_TIME_ZONE: "Europe/Berlin" },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.split("\n").filter((l) => l.startsWith("warning:"))).toEqual([
        `warning: result p00000-m0 (patient U-1000): no normative database for 30-2 (version ${DEFAULT_NORMATIVE_VERSION}): the MD, PSD, VFI and GHT Observations are left out`,
      ]);
      expect(await validateBundle(JSON.parse(run.stdout))).toEqual([]);
    } finally {
      await backend.close();
    }
  });

  it("the same result exported twice gets the same fullUrls (receivers de-duplicate)", () => {
    const p = samplePatient(5);
    const a = fhirResources(exportRecord(p, sampleMeasurement(p, 2))!, context).map((e) => e.fullUrl);
    const b = fhirResources(exportRecord(p, sampleMeasurement(p, 2))!, context).map((e) => e.fullUrl);
    expect(a).toEqual(b);
  });

  it("an empty export is still a valid bundle", async () => {
    const bundle = Schema.decodeUnknownSync(BundleSchema)(await bundleOf(0, 0), strict);
    expect(bundle.entry).toEqual([]);
  });
});

describe("stable ids", () => {
  it("name-based UUIDs (version 5, RFC 4122 variant) stay what earlier exports wrote", () => {
    // Values from the first implementation (createHash): receivers de-duplicate on them, so they must never change.
    expect(stableUuid("Patient:p00001")).toBe("836a7dac-7fb1-5bc7-a101-a4d52af081b6");
    expect(stableUuid("Observation:m1:md")).toBe("0ab8a437-4010-56cc-b9ac-df3bc57e030f");
    for (let i = 0; i < 200; i++)
      expect(stableUuid(`DiagnosticReport:m${i}`)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
