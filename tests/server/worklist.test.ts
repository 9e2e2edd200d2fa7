import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Schema } from "effect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { exportContext } from "../../cli/export/context.ts";
import { opvDataset, opvFile } from "../../cli/export/dicom.ts";
import { fhirResources } from "../../cli/export/fhir-resources.ts";
import { examinationRecord, exportRecord } from "../../cli/export/record.ts";
import { DiagnosticReportSchema } from "../../core/import/fhir-schema.ts";
import type { WorklistSettings, WorklistStep } from "../../core/model/dicom-network.ts";
import { Eye, Pattern, Strategy, TestType } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { demoResult } from "../../simulator/server/demo/results.ts";
import { saveDicomSettings } from "../../simulator/server/dicom/settings.ts";
import { startWorklistPeriodic } from "../../simulator/server/worklist/periodic.ts";
import { worklistDay } from "../../simulator/server/worklist/queue.ts";
import { dciodvfyAsync, freePort } from "../cli/dicom-tools.ts";
import { isopter, tempHome } from "../cli/harness.ts";
import { call, DEMO_PASSWORD, login, ok, raw, startTestServer, type TestServer } from "./harness.ts";
import { startWorklistProvider, type WorklistProvider } from "./worklist-provider.ts";

// Issue 29 §3 against a real worklist provider, dcmtk's wlmscpfs (scripts/system-deps.sh installs dcmtk), with worklist
// files written by the test: "Each new step becomes, or matches, a patient and a measurement queued on a chosen headset
// (an appointment in the appointment variant). Pattern and strategy come from the step's protocol code: the standard's
// CID 4250/4251, or a per-organisation table of local codes. The Accession Number and Requested Procedure ID travel into
// that result's OPV and FHIR. A step seen again is not queued twice." Bad input: "a worklist item without a patient ID"
// is refused with a line naming it while the rest goes on; "A PACS or worklist provider that is down gets a clear error,
// and the periodic query tries again next period. AE titles, hosts and ports are checked before use."

const PROVIDER_AE = "ISOPTER_WL";
const STATION = "PERIMETRY1";
const APPT_STATION = "PERIMETRY2";
const run = `${process.pid % 10_000}-${Date.now() % 100_000}`;
const pid = (n: number) => `WL${run}-${n}`;

interface Item {
  readonly file: string;
  readonly patientId?: string;
  readonly name: string;
  readonly birthdate: string;
  readonly sex?: string;
  readonly accession: string;
  readonly sps: string;
  readonly rp?: string;
  readonly station?: string;
  readonly day?: string;
  readonly time?: string;
  readonly codes: ReadonlyArray<readonly [string, string, string]>;
  readonly description?: string;
}

const studyUidOf = (accession: string) => `1.2.826.0.1.3680043.8.498.${Buffer.from(accession).reduce((a, b) => (a * 31 + b) % 1e9, 7)}`;

/** A worklist item in the provider's database, with the suite's defaults (its station, today, 9:00). */
function writeItem(provider: WorklistProvider, i: Item, today: string): void {
  provider.write({
    file: i.file,
    ...(i.patientId !== undefined ? { patientId: i.patientId } : {}),
    name: i.name,
    birthdate: i.birthdate,
    sex: (i.sex ?? "O") as "F" | "M" | "O",
    accession: i.accession,
    requestedProcedureId: i.rp ?? `RP-${i.accession}`,
    studyInstanceUid: studyUidOf(i.accession),
    stepId: i.sps,
    station: i.station ?? STATION,
    day: i.day ?? today,
    time: i.time ?? "090000",
    codes: i.codes,
    description: i.description ?? "Perimetry",
  });
}

const p24_2 = ["DCM", "111800", "Visual Field 24-2 Test Pattern"] as const;
const p30_2 = ["DCM", "111802", "Visual Field 30-2 Test Pattern"] as const;
const ds = ["DCM", "111826", "Visual Field Dynamic Test Strategy"] as const;
const sitaStandard = ["DCM", "111815", "Visual Field SITA-Standard Test Strategy"] as const;

let provider: WorklistProvider;
let server: TestServer;
let manager: string;
let apptManager: string;
let deviceSn: string;
let apptDeviceSn: string;
let skew = 0;
const today = () => worklistDay(server.ctx.now());
const tomorrow = () => worklistDay(server.ctx.now() + 86_400_000);
const demo = { id: "", uniqueId: "", name: "", birthdate: "" };

const settings = (over: Partial<WorklistSettings> = {}, provider_: Partial<WorklistSettings["provider"]> = {}): WorklistSettings => ({
  enabled: false,
  provider: { host: "127.0.0.1", port: provider.port, calledAeTitle: PROVIDER_AE, callingAeTitle: STATION, ...provider_ },
  intervalMinutes: 5,
  deviceSn,
  modality: "OPV",
  localCodes: [{ scheme: "99CLINIC", value: "GLAUC-FU", pattern: Pattern.G, strategy: Strategy.SORS }],
  ...over,
});
const setWorklist = (worklist: WorklistSettings, token = manager) =>
  ok(server.url, "dicom.settingsUpdate", { body: { worklist, pacs: null } }, token);
const query = (dryRun: boolean, token = manager) => call(server.url, "worklist.query", { body: { dryRun } }, token);
const stepOf = (steps: readonly WorklistStep[], sps: string) => steps.find((s) => s.item.startsWith(`step ${sps} `));
const lane = async () => (await ok(server.url, "device.all", {}, manager)).find((d) => d.deviceSn === deviceSn)!.perimetries;
const queuedFor = async (accession: string) => (await lane()).filter((m) => m.order?.accessionNumber === accession);

beforeAll(async () => {
  provider = await startWorklistProvider(PROVIDER_AE);
  server = await startTestServer("pglite", { worklistTickMs: 0, now: () => Date.now() + skew });
  manager = await login(server.url, "manager");
  apptManager = await login(server.url, "appt.manager");
  deviceSn = (await ok(server.url, "device.all", {}, manager))[0]!.deviceSn;
  apptDeviceSn = (await ok(server.url, "device.all", {}, apptManager))[0]!.deviceSn;
  const p = (await ok(server.url, "patient.all", {}, manager))[0]!;
  Object.assign(demo, { id: p.id, uniqueId: p.uniqueId, name: p.name, birthdate: p.birthdate });
  const [given, ...family] = p.name.split(" ").reverse();
  const pn = `${given}^${family.reverse().join(" ")}`;
  const t = today();
  writeItem(
    provider,
    {
      file: "a",
      patientId: pid(1),
      name: "Weiß^Jürgen",
      birthdate: "19580214",
      sex: "M",
      accession: "A-1001",
      sps: "SPS-1001",
      time: "090000",
      codes: [p24_2, ds],
      description: "Visual field OD",
    },
    t,
  );
  writeItem(
    provider,
    {
      file: "b",
      patientId: demo.uniqueId,
      name: pn,
      birthdate: demo.birthdate.replace(/-/g, ""),
      accession: "A-1002",
      sps: "SPS-1002",
      time: "093000",
      codes: [["99clinic", "GLAUC-FU", "Glaucoma follow-up"]],
    },
    t,
  );
  writeItem(
    provider,
    { file: "c", name: "Nobody^Known", birthdate: "19700101", accession: "A-1003", sps: "SPS-1003", time: "100000", codes: [p24_2, ds] },
    t,
  );
  writeItem(
    provider,
    {
      file: "d",
      patientId: pid(4),
      name: "Sita^Hanna",
      birthdate: "19610301",
      accession: "A-1004",
      sps: "SPS-1004",
      time: "103000",
      codes: [p30_2, sitaStandard],
      description: "Visual field OS",
    },
    t,
  );
  writeItem(
    provider,
    {
      file: "e",
      patientId: pid(5),
      name: "Code^Unknown",
      birthdate: "19620401",
      accession: "A-1005",
      sps: "SPS-1005",
      time: "110000",
      codes: [["99RIS", "VF-XYZ", "Perimetry special"]],
    },
    t,
  );
  writeItem(
    provider,
    {
      file: "f",
      patientId: pid(6),
      name: "Other^Station",
      birthdate: "19630501",
      accession: "A-1006",
      sps: "SPS-1006",
      station: "ELSEWHERE",
      codes: [p24_2, ds],
    },
    t,
  );
  writeItem(
    provider,
    {
      file: "g",
      patientId: pid(7),
      name: "Tomorrow^Tom",
      birthdate: "19640601",
      accession: "A-1007",
      sps: "SPS-1007",
      day: tomorrow(),
      codes: [p24_2, ds],
    },
    t,
  );
}, 120_000);
afterAll(async () => {
  await server?.drop();
  await provider?.stop();
});

describe("worklist settings", () => {
  it("AE titles, hosts and ports are checked before use: 400 naming the field", async () => {
    const put = (worklist: unknown) => raw(server.url, "PUT", "dicom/settings", { worklist, pacs: null }, manager);
    const cases: Array<[unknown, string]> = [
      [{ ...settings(), provider: { ...settings().provider, calledAeTitle: "MUCH_TOO_LONG_AE_TITLE" } }, "calledAeTitle"],
      [{ ...settings(), provider: { ...settings().provider, callingAeTitle: "BACK\\SLASH" } }, "callingAeTitle"],
      [{ ...settings(), provider: { ...settings().provider, callingAeTitle: "   " } }, "callingAeTitle"],
      [{ ...settings(), provider: { ...settings().provider, host: "not a host!" } }, "host"],
      [{ ...settings(), provider: { ...settings().provider, port: 70_000 } }, "port"],
      [{ ...settings(), provider: { ...settings().provider, port: 0 } }, "port"],
    ];
    for (const [worklist, field] of cases) {
      const answer = await put(worklist);
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect((answer.json.data as { field: string }).field).toContain(field);
    }
  });

  it("no worklist provider set: not_found naming it", async () => {
    const answer = await query(false);
    expect(answer.status).toBe(404);
    expect(answer.responseType).toBe("not_found");
    expect(answer.error!.message).toContain("No worklist provider is set");
  });
});

describe("worklist.query against wlmscpfs", () => {
  it("a dry run says what would happen and writes nothing", async () => {
    await setWorklist(settings());
    const before = (await lane()).length;
    const answer = await query(true);
    expect(answer.status, answer.error?.message).toBe(200);
    const steps = answer.data.steps;
    expect(answer.data.dryRun).toBe(true);
    // Only the station's steps of today, in their scheduled order.
    expect(steps.map((s) => s.item)).toEqual([
      "step SPS-1001 (accession A-1001)",
      "step SPS-1002 (accession A-1002)",
      "step SPS-1003 (accession A-1003)",
      "step SPS-1004 (accession A-1004)",
      "step SPS-1005 (accession A-1005)",
    ]);
    expect(steps.map((s) => s.action)).toEqual(["queued", "queued", "refused", "refused", "refused"]);
    expect(stepOf(steps, "SPS-1001")!.patient).toEqual({ id: null, name: "Jürgen Weiß", uniqueId: pid(1), created: true });
    expect(steps.every((s) => s.queuedId === null)).toBe(true);
    expect((await lane()).length).toBe(before);
    const patients = await ok(server.url, "patient.all", {}, manager);
    expect(patients.some((p) => p.uniqueId === pid(1))).toBe(false);
  });

  it("queues each new step with its order; an item without a patient ID, SITA Standard and an unknown code are refused by name while the rest goes on", async () => {
    const answer = await query(false);
    expect(answer.status, answer.error?.message).toBe(200);
    const steps = answer.data.steps;
    const a = stepOf(steps, "SPS-1001")!;
    expect(a).toMatchObject({ action: "queued", eye: Eye.Right, pattern: Pattern.P24_2, strategy: Strategy.DS, reason: null });
    expect(a.patient).toMatchObject({ name: "Jürgen Weiß", uniqueId: pid(1), created: true });
    expect(a.scheduledAt).not.toBeNull();
    const b = stepOf(steps, "SPS-1002")!;
    expect(b).toMatchObject({ action: "queued", eye: Eye.Both, pattern: Pattern.G, strategy: Strategy.SORS });
    expect(b.patient).toEqual({ id: demo.id, name: demo.name, uniqueId: demo.uniqueId, created: false });
    expect(stepOf(steps, "SPS-1003")).toMatchObject({ action: "refused", reason: "no patient ID" });
    expect(stepOf(steps, "SPS-1004")!.reason).toContain('DCM 111815 "Visual Field SITA-Standard Test Strategy" (CID 4251)');
    expect(stepOf(steps, "SPS-1005")!.reason).toContain('99RIS VF-XYZ "Perimetry special"');

    // The measurements on the headset's lane, with the order that travels into the OPV and FHIR.
    const [right] = await queuedFor("A-1001");
    expect(right).toMatchObject({
      id: a.queuedId,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      patientId: a.patient!.id,
    });
    expect(right!.order).toEqual({
      accessionNumber: "A-1001",
      requestedProcedureId: "RP-A-1001",
      scheduledProcedureStepId: "SPS-1001",
      studyInstanceUid: studyUidOf("A-1001"),
    });
    const pair = await queuedFor("A-1002");
    expect(pair.map((m) => m.eye).sort()).toEqual([Eye.Right, Eye.Left]);
    expect(pair.map((m) => m.patientId)).toEqual([demo.id, demo.id]);
    expect(pair.find((m) => m.eye === Eye.Left)!.isFollowingEye).toBe(pair.find((m) => m.eye === Eye.Right)!.id);
    const created = (await ok(server.url, "patient.all", {}, manager)).filter((p) => p.uniqueId === pid(1));
    expect(created).toMatchObject([{ name: "Jürgen Weiß", birthdate: "1958-02-14", gender: 1 }]);
  });

  it("a step seen again is not queued twice", async () => {
    const before = (await lane()).length;
    const steps = (await query(false)).data.steps;
    expect(stepOf(steps, "SPS-1001")).toMatchObject({ action: "seen", reason: "queued before" });
    expect(stepOf(steps, "SPS-1002")!.action).toBe("seen");
    expect(stepOf(steps, "SPS-1003")!.action).toBe("refused");
    expect((await lane()).length).toBe(before);
    expect(await queuedFor("A-1001")).toHaveLength(1);
    expect((await ok(server.url, "patient.all", {}, manager)).filter((p) => p.uniqueId === pid(1))).toHaveLength(1);
  });

  it("a local code maps a CID 4251 strategy Isopter does not run (SITA Standard) to a test it runs", async () => {
    await setWorklist(
      settings({
        localCodes: [
          ...settings().localCodes,
          { scheme: "DCM", value: "111815", pattern: Pattern.P24_2, strategy: Strategy.DS },
          { scheme: "99RIS", value: "VF-XYZ", pattern: Pattern.P10_2, strategy: Strategy.SORS },
        ],
      }),
    );
    const steps = (await query(false)).data.steps;
    expect(stepOf(steps, "SPS-1004")).toMatchObject({ action: "queued", pattern: Pattern.P24_2, strategy: Strategy.DS, eye: Eye.Left });
    // A local code naming a pair the measurement form does not offer (10-2 SORS) is refused by name.
    expect(stepOf(steps, "SPS-1005")).toMatchObject({
      action: "refused",
      reason: "the protocol orders 10-2 SORS, which the measurement form does not offer",
    });
    await setWorklist(settings());
  });

  it("the appointment variant: an appointment with the step's perimetry examinations, each with the order", async () => {
    writeItem(
      provider,
      {
        file: "h",
        patientId: pid(8),
        name: "Termin^Anna",
        birthdate: "19660801",
        sex: "F",
        accession: "A-1008",
        sps: "SPS-1008",
        station: APPT_STATION,
        codes: [p24_2, ds],
      },
      today(),
    );
    const apptDevice = (await ok(server.url, "device.all", {}, apptManager))[0]!.deviceSn;
    await setWorklist(settings({ deviceSn: apptDevice, localCodes: [] }, { callingAeTitle: APPT_STATION }), apptManager);
    const answer = await query(false, apptManager);
    expect(answer.status, answer.error?.message).toBe(200);
    expect(answer.data.steps).toHaveLength(1);
    const step = answer.data.steps[0]!;
    expect(step).toMatchObject({ item: "step SPS-1008 (accession A-1008)", action: "queued", eye: Eye.Both });
    const appointment = (await ok(server.url, "appointment.all", {}, apptManager)).find((a) => a.id === step.queuedId)!;
    expect(appointment.deviceSn).toBe(apptDeviceSn);
    expect(appointment.examinations.map((e) => [e.type, e.eye, e.config?.pattern, e.order?.accessionNumber])).toEqual([
      [TestType.Perimetry, Eye.Right, Pattern.P24_2, "A-1008"],
      [TestType.Perimetry, Eye.Left, Pattern.P24_2, "A-1008"],
    ]);
    expect((await query(false, apptManager)).data.steps[0]!.action).toBe("seen");
  });

  it("a provider that is down or refuses the association: 503 with a clear message", async () => {
    await setWorklist(settings({}, { port: await freePort() }));
    const down = await query(false);
    expect(down.status).toBe(503);
    expect(down.responseType).toBe("unavailable");
    expect(down.error!.message).toMatch(/^The worklist provider ISOPTER_WL@127\.0\.0\.1:\d+ cannot be reached: connect ECONNREFUSED/);
    await setWorklist(settings({}, { calledAeTitle: "NOT_THE_WL" }));
    const refused = await query(false);
    expect(refused.status).toBe(503);
    expect(refused.error!.message).toContain("refused the association from PERIMETRY1 (the called AE title is not its own");
    await setWorklist(settings());
  });
});

describe("the order travels into the result's OPV and FHIR", () => {
  it("a result taken for a queued step carries its Accession Number and Requested Procedure ID", async () => {
    const [m] = await queuedFor("A-1001");
    const result = demoResult({
      measurementId: m!.id,
      patientId: m!.patientId,
      takenAt: new Date(server.ctx.now()).toISOString(),
      ageYears: 68,
      yearsIntoCourse: 1,
      course: "early-glaucoma",
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      deviceAlias: "Room 1",
      seed: 29,
      birthdate: "1958-02-14",
    });
    await ok(server.url, "perimetry.upload", { body: { deviceSn, measurementId: m!.id, standaloneId: null, result } }, manager);
    const taken: Measurement = await ok(server.url, "perimetry.get", { query: { id: m!.id } }, manager);
    expect(taken.order?.accessionNumber).toBe("A-1001");
    const patient = await ok(server.url, "patient.get", { query: { id: taken.patientId } }, manager);
    const context = exportContext({ id: "org-test", name: "Isopter Demo Eye Clinic" }, { timeZone: "Europe/Berlin" });
    const record = exportRecord(patient, taken)!;
    const opv = opvDataset(record, context);
    expect(opv.AccessionNumber).toBe("A-1001");
    expect(opv.StudyInstanceUID).toBe(studyUidOf("A-1001"));
    expect(opv.RequestAttributesSequence).toEqual([
      {
        RequestedProcedureID: "RP-A-1001",
        AccessionNumber: "A-1001",
        StudyInstanceUID: studyUidOf("A-1001"),
        ScheduledProcedureStepID: "SPS-1001",
      },
    ]);
    const dir = mkdtempSync(join(tmpdir(), "worklist-opv-"));
    const file = join(dir, "ordered.dcm");
    writeFileSync(file, opvFile(record, context));
    const verdict = await dciodvfyAsync(file);
    expect(verdict.errors).toEqual([]);
    rmSync(dir, { recursive: true, force: true });

    const report = fhirResources(record, context)[0]!.resource as { identifier: Array<{ type?: unknown; value: string }> };
    expect(() => Schema.decodeUnknownSync(DiagnosticReportSchema)(report, { onExcessProperty: "error" })).not.toThrow();
    expect(report.identifier.slice(1)).toMatchObject([
      { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "ACSN" }] }, value: "A-1001" },
      { value: "RP-A-1001" },
    ]);
  });

  it("an examination of the appointment variant keeps its order through the export's results page", async () => {
    const appointment = (await ok(server.url, "appointment.all", {}, apptManager)).find((a) =>
      a.examinations.some((e) => e.order?.accessionNumber === "A-1008"),
    )!;
    const e = appointment.examinations[0]!;
    const takenAt = new Date(server.ctx.now()).toISOString();
    const result = demoResult({
      measurementId: e.id,
      patientId: e.patientId,
      takenAt,
      ageYears: 60,
      yearsIntoCourse: 0,
      course: "healthy",
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      deviceAlias: "Room 1",
      seed: 8,
      birthdate: "1966-08-01",
    });
    await server.db.query("update examinations set result = $1, taken_at = $2 where id = $3", [JSON.stringify(result), takenAt, e.id]);
    const page = await ok(
      server.url,
      "perimetry.page",
      { body: { filter: { from: null, to: null, pattern: null, eye: null }, after: null, quantity: 500 } },
      apptManager,
    );
    const exam = page.examinations!.find((x) => x.id === e.id)!;
    expect(exam.order).toMatchObject({
      accessionNumber: "A-1008",
      requestedProcedureId: "RP-A-1008",
      scheduledProcedureStepId: "SPS-1008",
    });
    const patient = page.patients.find((p) => p.id === exam.patientId)!;
    const opv = opvDataset(examinationRecord(patient, exam)!, exportContext({ id: "org-appt", name: "Appointments" }, { timeZone: "UTC" }));
    expect(opv.AccessionNumber).toBe("A-1008");
    expect((opv.RequestAttributesSequence as Array<Record<string, unknown>>)[0]!.RequestedProcedureID).toBe("RP-A-1008");
  });
});

describe("isopter worklist", () => {
  it("one line per step and a summary; exit 1 when a step was refused, 4 when the provider cannot be reached", async () => {
    const home = tempHome();
    const env = { ISOPTER_HOME: home };
    const organisationId = (await ok(server.url, "organisation.current", {}, manager)).id;
    // One session per user: the CLI's login ends the test's session of the manager, so the settings change below is
    // written straight into the database, and the test logs in again at the end.
    const loggedIn = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
      env,
      stdin: `${DEMO_PASSWORD}\n`,
    });
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    const dry = await isopter(["worklist", "--dry-run"], { env });
    expect(dry.code, dry.stderr).toBe(1);
    const lines = dry.stdout.trim().split("\n");
    expect(lines).toContain("step SPS-1001 (accession A-1001): seen (queued before)");
    expect(lines).toContain("step SPS-1003 (accession A-1003): refused: no patient ID");
    expect(lines.at(-1)).toBe("5 steps: 0 would be queued, 0 would be matched, 3 seen before, 2 refused");
    expect(dry.stderr).toContain("2 of 5 steps refused");

    await saveDicomSettings(
      server.db,
      organisationId,
      { worklist: settings({}, { port: await freePort() }), pacs: null },
      new Date().toISOString(),
    );
    const down = await isopter(["worklist"], { env });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("cannot be reached");
    manager = await login(server.url, "manager");
    await setWorklist(settings());
  });
});

describe("the periodic query", () => {
  it("queries once per period, logs a provider that is down in one line and tries again next period", async () => {
    writeItem(
      provider,
      {
        file: "i",
        patientId: pid(9),
        name: "Period^Ida",
        birthdate: "19690901",
        accession: "A-1009",
        sps: "SPS-1009",
        time: "120000",
        codes: [p24_2, ds],
      },
      today(),
    );
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => (lines.push(String(chunk)), true));
    const periodic = startWorklistPeriodic(server.ctx, 0);
    try {
      await setWorklist(settings({ enabled: true, intervalMinutes: 5 }));
      await periodic.tick();
      expect(await queuedFor("A-1009")).toHaveLength(2);
      expect(lines.join("")).toMatch(/worklist_queried .*queued=1/);

      // Within the period nothing is asked again: a new step waits for the next period.
      writeItem(
        provider,
        {
          file: "j",
          patientId: pid(10),
          name: "Period^Jan",
          birthdate: "19701001",
          accession: "A-1010",
          sps: "SPS-1010",
          time: "123000",
          codes: [p24_2, ds],
        },
        today(),
      );
      await periodic.tick();
      expect(await queuedFor("A-1010")).toHaveLength(0);

      // The provider down: one line, and the next period tries again.
      await setWorklist(settings({ enabled: true, intervalMinutes: 5 }, { port: await freePort() }));
      skew += 6 * 60_000;
      lines.length = 0;
      await periodic.tick();
      const failed = lines.filter((l) => l.includes("worklist_query_failed"));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toContain("cannot be reached");
      expect(failed[0]).toContain("retry=");
      await setWorklist(settings({ enabled: true, intervalMinutes: 5 }));
      await periodic.tick();
      expect(await queuedFor("A-1010")).toHaveLength(0); // still the failed query's period
      skew += 6 * 60_000;
      await periodic.tick();
      expect(await queuedFor("A-1010")).toHaveLength(2);
    } finally {
      periodic.stop();
      spy.mockRestore();
      await setWorklist(settings());
    }
  });

  it("the ticker runs by itself and stops", async () => {
    writeItem(
      provider,
      {
        file: "k",
        patientId: pid(11),
        name: "Ticker^Kai",
        birthdate: "19711101",
        accession: "A-1011",
        sps: "SPS-1011",
        time: "130000",
        codes: [p24_2, ds],
      },
      today(),
    );
    await setWorklist(settings({ enabled: true, intervalMinutes: 1 }));
    skew += 2 * 60_000;
    const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const periodic = startWorklistPeriodic(server.ctx, 50);
    try {
      await vi.waitFor(async () => expect(await queuedFor("A-1011")).toHaveLength(2), { timeout: 10_000, interval: 100 });
    } finally {
      periodic.stop();
      spy.mockRestore();
      await setWorklist(settings());
    }
  });
});
