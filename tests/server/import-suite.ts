import { expect, it } from "vitest";
import { exportContext } from "../../cli/export/context.ts";
import { opvDataset, opvFile, part10 } from "../../cli/export/dicom.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { visualFieldsHeader, visualFieldsRow } from "../../cli/export/csv.ts";
import { fhirBundleWriter } from "../../cli/export/fhir.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import type { Endpoint, RequestOf, ResponseOf } from "../../core/model/contract/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { ImportFile } from "../../core/model/import.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import { memorySink, samplePatient, sampleMeasurement } from "../cli/fixtures.ts";
import type { Answer } from "./harness.ts";
import { freePort } from "../cli/dicom-tools.ts";

// results/import (issue 29) against the running server, on PGlite and PostgreSQL through contract-suite.ts. The issue's
// rules, each a case: "Isopter's own OPV round-trips value for value"; "Patients are matched by Patient ID (with its
// issuer), else by name plus birth date. A patient is created only when nothing matches, and never twice. A conflict
// (same ID, different birth date or name) is refused and reported"; "importing the same file twice changes nothing";
// "--dry-run says per file what would happen ... and writes nothing"; "nothing is written by halves: one file is one
// transaction"; a corrupt file, a DICOM file that is not OPV, an OPV with an unknown pattern and a CSV row of the wrong
// width are refused with a line naming the file or item and the reason, while the rest goes on.

export interface ImportSuiteEnv {
  c<E extends Endpoint>(name: E, input: RequestOf<E>, token?: string): Promise<Answer<ResponseOf<E>>>;
  o<E extends Endpoint>(name: E, input: RequestOf<E>): Promise<ResponseOf<E>>;
  /** A user (not a manager) of the same organisation. */
  userToken(): Promise<string>;
  /** Raw HTTP with the manager's token (bodies the typed client would refuse to send). */
  raw(method: string, path: string, body: unknown): Promise<{ status: number; json: { data?: unknown; responseType?: string } }>;
}

const dicomFile = (name: string, bytes: Buffer): ImportFile => ({ name, encoding: "base64", content: bytes.toString("base64") });

/** A patient of another Isopter clinic, and three of their results (two 24-2 eyes, a 10-2), as that clinic exports them. */
function otherClinicExport(i: number, clinic: string | { id: string; name: string }, over: Partial<Patient> = {}) {
  const patient = { ...samplePatient(i), ...over };
  const context = exportContext(typeof clinic === "string" ? { id: `org-${clinic}`, name: clinic } : clinic, { timeZone: "Europe/Berlin" });
  const measurements: Measurement[] = [
    sampleMeasurement(patient, 1, { eye: Eye.Right, strategy: Strategy.DS }),
    sampleMeasurement(patient, 2, { eye: Eye.Left, strategy: Strategy.Normal }),
    sampleMeasurement(patient, 3, { pattern: Pattern.P10_2, eye: Eye.Right, strategy: Strategy.DS }),
  ];
  const records = measurements.map((m) => exportRecord(patient, m)!);
  return {
    patient,
    context,
    measurements,
    records,
    files: records.map((r, k) => dicomFile(`${patient.uniqueId}-${k}.dcm`, opvFile(r, context))),
  };
}

export function importCases(env: ImportSuiteEnv): void {
  const { c, o } = env;
  const ownName = async () => (await o("organisation.current", {})).name;
  const resultsOf = async (patientId: string) => (await o("perimetry.all", { query: { patientId } })).filter((m) => m.result !== null);

  it("issue 29: Isopter's own OPV round-trips value for value; a new patient is created once from the files' name, birth date and sex", async () => {
    const ex = otherClinicExport(71, await ownName(), { name: "Irmgard Kowalski-Lind", uniqueId: `U-IMP-${Date.now()}` });
    const report = await o("results.import", { body: { files: ex.files, dryRun: false } });
    expect(report.files.map((f) => f.action)).toEqual(["imported", "imported", "imported"]);
    const items = report.files.flatMap((f) => f.items);
    // The issuer is this organisation (its own export): the ID counts; nobody holds it yet, so the first file creates
    // the patient and the next two find them by that ID.
    expect(items.map((i) => i.patient?.match)).toEqual(["created", "id", "id"]);
    const patientId = items[0]!.patient!.id!;
    expect(new Set(items.map((i) => i.patient!.id))).toEqual(new Set([patientId]));
    const patient = await o("patient.get", { query: { id: patientId } });
    expect(patient).toMatchObject({
      name: ex.patient.name,
      uniqueId: ex.patient.uniqueId,
      birthdate: ex.patient.birthdate,
      gender: ex.patient.gender,
    });

    const stored = await resultsOf(patientId);
    expect(stored).toHaveLength(3);
    for (const m of ex.measurements) {
      const back = stored.find(
        (s) => s.result!.source?.key === (opvDataset(exportRecord(ex.patient, m)!, ex.context).SOPInstanceUID as string),
      )!;
      const r = back.result!;
      const original = m.result!;
      const geometry = getPattern(original.pattern);
      expect(r.pattern).toBe(original.pattern);
      expect(r.eye).toBe(original.eye);
      expect(r.strategy).toBe(original.strategy);
      // DICOM times are to the second.
      expect(r.takenAt).toBe(new Date(Math.floor(Date.parse(original.takenAt) / 1000) * 1000).toISOString());
      // Every tested location as exported (the blind-spot locations the export leaves out come back as not seen).
      original.thresholds.forEach((t, i) => expect(r.thresholds[i], `location ${i}`).toBe(geometry.blindSpotIndices.includes(i) ? -1 : t));
      expect(r.catchTrials).toEqual(original.catchTrials);
      expect(r.presentations).toBe(Math.round(original.presentations));
      expect(r.examinationTimeInSeconds).toBe(original.examinationTimeInSeconds);
      expect(r.stimulusSize).toBe(original.stimulusSize === 5 ? 2 : original.stimulusSize);
      expect(r.stimuliShowtime).toBe(original.stimuliShowtime);
      expect(r.maxIntensity).toBeCloseTo(original.maxIntensity, 4);
      expect(r.background).toBeCloseTo(original.background, 2);
      expect(r.normativeVersion).toBe(original.normativeVersion);
      expect(r.source).toMatchObject({ kind: "imported", format: "dicom-opv", manufacturer: "Isopter", model: "VR headset perimeter" });
      // Isopter's own analysis of the imported thresholds stands beside the file's (here the same analysis).
      expect(r.meanDefect).not.toBeNull();
      expect(r.source!.deviceIndices!.md).toBeCloseTo(-r.meanDefect!, 0);
    }
  });

  it("issue 29: Isopter's own FHIR export round-trips value for value (its sensitivity Observation read back); the organisation's own identifier system counts as its issuer", async () => {
    const organisation = await o("organisation.current", {});
    const ex = otherClinicExport(80, organisation, { uniqueId: `U-FHIR-${Date.now()}`, name: "Greta Fhirsen" });
    const sink = memorySink();
    const writer = fhirBundleWriter(sink, { context: ex.context });
    for (const r of ex.records) await writer.write(r);
    await writer.end();
    const report = await o("results.import", {
      body: { files: [{ name: "bundle.json", encoding: "utf8", content: sink.text() }], dryRun: false },
    });
    const file = report.files[0]!;
    expect(file).toMatchObject({ format: "fhir", action: "imported" });
    expect(file.items.map((i) => i.patient?.match)).toEqual(["created", "id", "id"]);
    const patientId = file.items[0]!.patient!.id!;
    const stored = await resultsOf(patientId);
    for (const m of ex.measurements) {
      const back = stored.find(
        (s) => s.result!.takenAt === new Date(Math.floor(Date.parse(m.result!.takenAt) / 1000) * 1000).toISOString(),
      )!;
      expect(back.result!.thresholds).toEqual(m.result!.thresholds);
      expect([back.result!.pattern, back.result!.eye, back.result!.strategy]).toEqual([
        m.result!.pattern,
        m.result!.eye,
        m.result!.strategy,
      ]);
      expect(back.result!.catchTrials).toEqual(m.result!.catchTrials);
      expect(back.result!.source).toMatchObject({ format: "fhir", manufacturer: "Isopter" });
    }
    const again = await o("results.import", {
      body: { files: [{ name: "bundle.json", encoding: "utf8", content: sink.text() }], dryRun: false },
    });
    expect(again.files[0]!.action).toBe("duplicate");
  });

  it("issue 29: importing the same files again changes nothing (the SOP Instance UID is the key)", async () => {
    const ex = otherClinicExport(72, await ownName(), { uniqueId: `U-IMP2-${Date.now()}` });
    const first = await o("results.import", { body: { files: ex.files, dryRun: false } });
    const patientId = first.files[0]!.items[0]!.patient!.id!;
    const again = await o("results.import", { body: { files: ex.files, dryRun: false } });
    expect(again.files.map((f) => f.action)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(again.files.flatMap((f) => f.items.map((i) => i.measurementId))).toEqual(
      first.files.flatMap((f) => f.items.map((i) => i.measurementId)),
    );
    expect(await resultsOf(patientId)).toHaveLength(3);
    expect((await o("patient.all", {})).filter((p) => p.uniqueId === ex.patient.uniqueId)).toHaveLength(1);
  });

  it("issue 29: --dry-run says per file what would happen (created, matched, refused and why) and writes nothing", async () => {
    const ex = otherClinicExport(73, await ownName(), { uniqueId: `U-DRY-${Date.now()}` });
    const before = (await o("patient.all", {})).length;
    const report = await o("results.import", { body: { files: ex.files, dryRun: true } });
    expect(report.dryRun).toBe(true);
    expect(report.files.map((f) => f.action)).toEqual(["imported", "imported", "imported"]);
    const first = report.files[0]!.items[0]!;
    expect(first.patient).toMatchObject({ match: "created", id: null, uniqueId: ex.patient.uniqueId });
    expect(first.measurementId).toBeNull();
    expect((await o("patient.all", {})).length).toBe(before);
  });

  it("issue 29: a patient ID from another issuer is not ours: the field is matched by name and birth date", async () => {
    const own = await o("patient.register", {
      body: { name: "Henrike Albers", uniqueId: `U-NB-${Date.now()}`, gender: 0, lang: "en", birthdate: "1951-03-04" },
    });
    const ex = otherClinicExport(74, "Another Hospital", { name: "Henrike ALBERS", birthdate: "1951-03-04", uniqueId: "H-999" });
    const report = await o("results.import", { body: { files: [ex.files[0]!], dryRun: false } });
    expect(report.files[0]!.items[0]!.patient).toMatchObject({ id: own.id, match: "name-birthdate" });
  });

  it("issue 29: a conflict (same ID, different birth date or name) is refused and reported, and nothing of the file is written", async () => {
    const uniqueId = `U-CF-${Date.now()}`;
    const own = await o("patient.register", { body: { name: "Bruno Keller", uniqueId, gender: 1, lang: "en", birthdate: "1948-11-02" } });
    const ex = otherClinicExport(75, await ownName(), { name: "Bruno Keller", uniqueId, birthdate: "1948-11-03" });
    const report = await o("results.import", { body: { files: ex.files.slice(0, 1), dryRun: false } });
    const file = report.files[0]!;
    expect(file.action).toBe("refused");
    expect(file.items[0]!.reason).toContain(
      `patient ID ${uniqueId} is Bruno Keller's, but birth date 1948-11-03 in the file, 1948-11-02 in Isopter`,
    );
    expect(await resultsOf(own.id)).toHaveLength(0);
  });

  it("issue 29: bad files are refused with a line naming the reason while the rest goes on", async () => {
    const ex = otherClinicExport(76, await ownName(), { uniqueId: `U-BAD-${Date.now()}` });
    const good = ex.files[0]!;
    const opv = opvDataset(ex.records[1]!, ex.context);
    const unknownPattern = part10({
      ...opv,
      SOPInstanceUID: `${opv.SOPInstanceUID}.9`,
      PerformedProtocolCodeSequence: [
        { CodeValue: "111803", CodingSchemeDesignator: "DCM", CodeMeaning: "Visual Field 60-4 Test Pattern" },
      ],
    });
    const pdf = part10({ ...opv, SOPClassUID: "1.2.840.10008.5.1.4.1.1.104.1", SOPInstanceUID: `${opv.SOPInstanceUID}.8` });
    const corrupt = Buffer.concat([Buffer.alloc(128), Buffer.from("DICM"), Buffer.from([0x02, 0x00, 0x10, 0x00, 0xff, 0xff])]);
    const report = await o("results.import", {
      body: {
        files: [
          { name: "corrupt.dcm", encoding: "base64", content: corrupt.toString("base64") },
          dicomFile("report.dcm", pdf),
          dicomFile("sixty-four.dcm", unknownPattern),
          { name: "notes.txt", encoding: "utf8", content: "hello" },
          good,
        ],
        dryRun: false,
      },
    });
    const [c1, c2, c3, c4, c5] = report.files;
    expect(c1).toMatchObject({ file: "corrupt.dcm", action: "refused" });
    expect(c1!.reason).toMatch(/corrupt DICOM file/);
    expect(c2!.reason).toBe("not a DICOM OPV file: it is an Encapsulated PDF (a printed report, not measurements)");
    expect(c3!.action).toBe("refused");
    expect(c3!.items[0]!.reason).toBe("unknown pattern: Visual Field 60-4 Test Pattern (DCM 111803) is not a pattern Isopter has");
    expect(c4!.reason).toMatch(/not a file Isopter imports/);
    expect(c5!.action).toBe("imported");
  });

  it("issue 29: a visualFields CSV joins the patients its id column names (a unique id, or through a mapping); a row of the wrong width refuses the file", async () => {
    const own = await o("patient.register", {
      body: { name: "Carla Mendes", uniqueId: `U-CSV-${Date.now()}`, gender: 0, lang: "en", birthdate: "1955-06-07" },
    });
    const p = { ...samplePatient(77), id: "csv-77" };
    const rows = [1, 2].map((k) => visualFieldsRow(exportRecord(p, sampleMeasurement(p, k, { strategy: Strategy.DS }))!));
    const csv = `${visualFieldsHeader(Pattern.P24_2)}\n${rows.join("\n")}\n`;
    const mapped = await o("results.import", {
      body: { files: [{ name: "fields.csv", encoding: "utf8", content: csv }], dryRun: false, csvPatients: { "csv-77": own.uniqueId } },
    });
    expect(mapped.files[0]!.action).toBe("imported");
    expect(mapped.files[0]!.items.map((i) => i.patient?.id)).toEqual([own.id, own.id]);
    const stored = await resultsOf(own.id);
    expect(stored.map((m) => m.result!.source?.format)).toEqual(["visualfields-csv", "visualfields-csv"]);

    const broken = `${visualFieldsHeader(Pattern.P24_2)}\n${rows[0]}\n${rows[1]!.split(",").slice(0, -3).join(",")}\n`;
    const refused = await o("results.import", {
      body: { files: [{ name: "broken.csv", encoding: "utf8", content: broken }], dryRun: false, csvPatients: { "csv-77": own.uniqueId } },
    });
    expect(refused.files[0]).toMatchObject({ file: "broken.csv", action: "refused" });
    expect(refused.files[0]!.reason).toMatch(/line 3/);
  });

  it("issue 29: a new patient named by two files of one call is created once", async () => {
    const uniqueId = `U-ONCE-${Date.now()}`;
    const ex = otherClinicExport(78, await ownName(), { uniqueId });
    const report = await o("results.import", { body: { files: [ex.files[0]!, ex.files[1]!], dryRun: false } });
    expect(report.files.flatMap((f) => f.items.map((i) => i.patient?.match))).toEqual(["created", "id"]);
    expect((await o("patient.all", {})).filter((p) => p.uniqueId === uniqueId)).toHaveLength(1);
  });

  it("issue 29: only managers import (a user is forbidden); a patient page's import refuses another patient's fields", async () => {
    const ex = otherClinicExport(79, await ownName(), { uniqueId: `U-ROLE-${Date.now()}` });
    const asUser = await c("results.import", { body: { files: ex.files, dryRun: true } }, await env.userToken());
    expect(asUser.status).toBe(403);
    const someone = await o("patient.register", {
      body: { name: "Dora Someone", uniqueId: `U-SOME-${Date.now()}`, gender: 0, lang: "en", birthdate: "1970-01-01" },
    });
    const report = await o("results.import", { body: { files: [ex.files[0]!], dryRun: false, patientId: someone.id } });
    expect(report.files[0]!.action).toBe("refused");
    expect(report.files[0]!.items[0]!.reason).toMatch(/not this patient's/);
  });

  it("issue 29: the DICOM network's AE titles, hosts and ports are checked before use; a peer that is down is named in one line", async () => {
    expect(await o("dicom.settings", {})).toEqual({ worklist: null, pacs: null });
    const closed = await freePort();
    const node = { host: "127.0.0.1", port: closed, calledAeTitle: "PACS", callingAeTitle: "ISOPTER_VF" };
    const pacsWith = (over: object) => ({ worklist: null, pacs: { node: { ...node, ...over }, retrieve: "get", storePort: null } });
    for (const [over, field] of [
      [{ calledAeTitle: "A_TITLE_LONGER_THAN_16" }, "body.pacs.node.calledAeTitle"],
      [{ callingAeTitle: "BACK\\SLASH" }, "body.pacs.node.callingAeTitle"],
      [{ callingAeTitle: "   " }, "body.pacs.node.callingAeTitle"],
      [{ host: "pacs host; rm -rf /" }, "body.pacs.node.host"],
      [{ port: 70000 }, "body.pacs.node.port"],
      [{ port: 0 }, "body.pacs.node.port"],
    ] as const) {
      const bad = await env.raw("PUT", "dicom/settings", pacsWith(over));
      expect(bad.status, JSON.stringify(over)).toBe(400);
      expect((bad.json.data as { field?: string }).field, JSON.stringify(over)).toBe(field);
    }
    const worklist = { enabled: false, provider: node, intervalMinutes: 5, deviceSn: "VR-9999", modality: "OPV", localCodes: [] };
    const foreignHeadset = await c("dicom.settingsUpdate", { body: { worklist, pacs: null } });
    expect(foreignHeadset.status).toBe(404);
    expect(foreignHeadset.error!.message).toBe("Headset VR-9999 not found");
    const settings = { worklist: { ...worklist, deviceSn: null }, pacs: { node, retrieve: "get" as const, storePort: null } };
    expect(await o("dicom.settingsUpdate", { body: settings })).toEqual(settings);
    expect(await o("dicom.settings", {})).toEqual(settings);

    const echo = await o("dicom.echo", { body: { peer: "pacs" } });
    expect(echo.ok).toBe(false);
    expect(echo.message).toContain(`PACS@127.0.0.1:${closed} cannot be reached`);
    const query = await c("worklist.query", { body: { dryRun: true } });
    expect(query.status).toBe(503);
    expect(query.error!.message).toContain(`127.0.0.1:${closed}`);
    const someone = await o("patient.register", {
      body: { name: "Paula Prior", uniqueId: `U-PRIOR-${Date.now()}`, gender: 0, lang: "en", birthdate: "1961-02-03" },
    });
    const fetch = await c("pacs.fetch", { body: { patientId: someone.id, dryRun: true } });
    expect(fetch.status).toBe(503);
    expect(fetch.error!.message).toContain(`127.0.0.1:${closed}`);
    await o("dicom.settingsUpdate", { body: { worklist: null, pacs: null } });
  });
}
