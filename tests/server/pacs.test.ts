import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportContext } from "../../cli/export/context.ts";
import { opvDataset, opvFile, part10 } from "../../cli/export/dicom.ts";
import { pdfDataset } from "../../cli/export/dicom-pdf.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import type { DicomSettings } from "../../core/model/dicom-network.ts";
import type { Endpoint, RequestOf } from "../../core/model/contract/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import { freePort } from "../cli/dicom-tools.ts";
import { samplePatient, sampleMeasurement } from "../cli/fixtures.ts";
import { isopter, tempHome } from "../cli/harness.ts";
import { startOrthanc, type Orthanc } from "../cli/orthanc.ts";
import { humphreyOpvFile, type HumphreyOpvContent } from "../import/humphrey-opv.ts";
import { call, DEMO_PASSWORD, login, ok, raw, startTestServer, type TestServer } from "./harness.ts";

// Priors from the PACS (issue 29 §3: "isopter pacs fetch --patient ID and a 'Fetch priors' button on the patient page.
// They query the PACS (C-FIND for the OPV SOP class), retrieve the instances (C-GET, or C-MOVE to a storage SCP that
// Isopter runs), and import them as in 1"; done when "it fetches priors from a real Orthanc"). A real Orthanc
// (tests/cli/orthanc.ts) holds two patients' fields, Isopter's own exports and Humphrey-style files, beside an
// Encapsulated PDF and another patient's field that must not come; the server fetches them through pacs/fetch with
// C-GET and with C-MOVE, a second time finds them all here, a dry run writes nothing, and a PACS that is down or does
// not know Isopter's AE title is a 503 naming it.

const ISOPTER_AET = "ISOPTER";

let orthanc: Orthanc;
let server: TestServer;
let manager: string;
let organisation: { id: string; name: string };

const o = <E extends Endpoint>(name: E, input: RequestOf<E>) => ok(server.url, name, input, manager);
const c = <E extends Endpoint>(name: E, input: RequestOf<E>) => call(server.url, name, input, manager);

/** Stores a Part 10 file in Orthanc through its REST API. */
const store = (bytes: Buffer) => orthanc.rest("/instances", { method: "POST", body: new Uint8Array(bytes) });

interface PacsPatient {
  readonly patient: Patient;
  /** Isopter's own exports of the patient, by SOP Instance UID. */
  readonly own: Map<string, Measurement>;
  /** Humphrey-style files, by SOP Instance UID. */
  readonly humphrey: Map<string, HumphreyOpvContent>;
}

/** A patient registered in Isopter and holding fields in the PACS under the same Patient ID. */
async function pacsPatient(i: number, name: string, dicomName: string, birthDate: string): Promise<PacsPatient> {
  const uniqueId = `PACS-${i}-${Date.now()}`;
  const registered = await o("patient.register", { body: { name, uniqueId, gender: 1, lang: "en", birthdate: birthDate } });
  const exported = { ...samplePatient(i), name, uniqueId, birthdate: birthDate, gender: 1 } as Patient;
  const context = exportContext(organisation, { timeZone: "Europe/Berlin" });
  const own = new Map<string, Measurement>();
  for (const m of [
    sampleMeasurement(exported, 1, { eye: Eye.Right, strategy: Strategy.DS }),
    sampleMeasurement(exported, 2, { pattern: Pattern.P10_2, eye: Eye.Left, strategy: Strategy.Normal }),
  ]) {
    const record = exportRecord(exported, m)!;
    own.set(opvDataset(record, context).SOPInstanceUID as string, m);
    await store(opvFile(record, context));
  }
  // The page of the first result as an Encapsulated PDF, in the same study: not an OPV, never fetched.
  await store(part10(pdfDataset(exportRecord(exported, [...own.values()][0]!)!, new TextEncoder().encode("%PDF-1.7\n%%EOF\n"), context)));
  const humphrey = new Map<string, HumphreyOpvContent>();
  const patient = { name: dicomName, id: uniqueId, birthDate: birthDate.replaceAll("-", ""), sex: "F" as const };
  for (const [k, options] of [
    { pattern: "24-2", strategy: "SITA Standard", eye: "OD", takenAt: "2019-03-04T10:11:12" },
    { pattern: "30-2", strategy: "SITA Faster", eye: "OS", takenAt: "2018-05-06T09:08:07" },
  ].entries()) {
    const { buffer, content } = humphreyOpvFile({ ...(options as object), patient, seed: i * 10 + k } as Parameters<
      typeof humphreyOpvFile
    >[0]);
    humphrey.set(content.sopInstanceUid, content);
    await store(buffer);
  }
  return { patient: registered, own, humphrey };
}

const settings = (pacs: DicomSettings["pacs"]): DicomSettings => ({ worklist: null, pacs });
const node = (over: Partial<NonNullable<DicomSettings["pacs"]>["node"]> = {}) => ({
  host: "127.0.0.1",
  port: orthanc.dicomPort,
  calledAeTitle: orthanc.aet,
  callingAeTitle: ISOPTER_AET,
  ...over,
});

/** The patient's stored results checked against what the PACS held: every threshold, the strategy as the file names it. */
async function expectImported(p: PacsPatient) {
  const results = (await o("perimetry.all", { query: { patientId: p.patient.id } })).filter((m) => m.result !== null);
  expect(results).toHaveLength(p.own.size + p.humphrey.size);
  for (const [uid, original] of p.own) {
    const r = results.find((m) => m.result!.source?.key === uid)!.result!;
    const geometry = getPattern(original.result!.pattern);
    expect(r.pattern).toBe(original.result!.pattern);
    expect(r.strategy).toBe(original.result!.strategy);
    expect(r.source).toMatchObject({ kind: "imported", format: "dicom-opv", manufacturer: "Isopter" });
    original.result!.thresholds.forEach((t, i) =>
      expect(r.thresholds[i], `location ${i}`).toBe(geometry.blindSpotIndices.includes(i) ? -1 : t),
    );
  }
  for (const [uid, content] of p.humphrey) {
    const r = results.find((m) => m.result!.source?.key === uid)!.result!;
    expect(r.source).toMatchObject({ manufacturer: "Carl Zeiss Meditec", strategyName: content.strategyCode.CodeMeaning });
    const locations = pointsForEye(getPattern(r.pattern), r.eye);
    content.points.forEach((pt, k) => {
      const i = locations.findIndex((l) => l.x === pt.x && l.y === pt.y);
      const s = content.sensitivities[k];
      expect(r.thresholds[i], `(${pt.x}, ${pt.y})`).toBe(s === null || s === undefined ? -1 : s);
    });
  }
}

beforeAll(async () => {
  [orthanc, server] = await Promise.all([startOrthanc(), startTestServer("pglite")]);
  manager = await login(server.url, "manager");
  organisation = await o("organisation.current", {});
}, 120_000);
afterAll(async () => {
  await Promise.all([orthanc?.stop(), server?.drop()]);
});

describe("pacs/fetch against a real Orthanc", () => {
  let a: PacsPatient;
  let b: PacsPatient;
  beforeAll(async () => {
    a = await pacsPatient(71, "Irmgard Kowalski-Lind", "KOWALSKI-LIND^Irmgard", "1951-04-12");
    b = await pacsPatient(72, "Ottokar Brenner", "BRENNER^Ottokar", "1946-11-30");
    // Another patient's field under an ID of their own: never found for a or b.
    await store(humphreyOpvFile({ patient: { name: "OTHER^Olga", id: `OTHER-${Date.now()}`, birthDate: "19600101", sex: "F" } }).buffer);
  }, 60_000);

  it("no PACS set: not_found naming the settings; the AE titles, hosts and ports are checked before they are stored", async () => {
    const none = await c("pacs.fetch", { body: { patientId: a.patient.id, dryRun: false } });
    expect(none.status).toBe(404);
    expect(none.error!.message).toMatch(/No PACS is set/);
    for (const wrong of [
      { calledAeTitle: "A-TITLE-LONGER-THAN-16" },
      { callingAeTitle: "BACK\\SLASH" },
      { host: "pacs host" },
      { port: 0 },
    ]) {
      const bad = await raw(
        server.url,
        "PUT",
        "dicom/settings",
        settings({ node: node(wrong), retrieve: "get", storePort: null }),
        manager,
      );
      expect(bad.status, JSON.stringify(wrong)).toBe(400);
      expect(bad.json.responseType).toBe("validation_error");
    }
  });

  it("C-GET: a dry run says what would come and writes nothing; then the patient's OPVs are imported, values and all", async () => {
    await o("dicom.settingsUpdate", { body: settings({ node: node(), retrieve: "get", storePort: null }) });
    const dry = await o("pacs.fetch", { body: { patientId: a.patient.id, dryRun: true } });
    expect(dry.found).toBe(4);
    expect(dry.imported.dryRun).toBe(true);
    expect(dry.imported.files.map((f) => f.action)).toEqual(["imported", "imported", "imported", "imported"]);
    expect(dry.imported.files.flatMap((f) => f.items.map((i) => i.measurementId))).toEqual([null, null, null, null]);
    expect((await o("perimetry.all", { query: { patientId: a.patient.id } })).filter((m) => m.result !== null)).toEqual([]);

    const report = await o("pacs.fetch", { body: { patientId: a.patient.id, dryRun: false } });
    expect(report.found).toBe(4);
    const uids = [...a.own.keys(), ...a.humphrey.keys()].sort();
    expect(report.imported.files.map((f) => f.items[0]!.item).sort()).toEqual(uids.map((u) => `SOP Instance ${u}`));
    for (const f of report.imported.files) {
      expect(f, f.file).toMatchObject({ format: "dicom-opv", action: "imported" });
      expect(f.file).toBe(`${orthanc.aet}/${f.items[0]!.item.replace("SOP Instance ", "")}`);
      expect(f.items[0]!.patient).toMatchObject({ id: a.patient.id });
    }
    await expectImported(a);
  });

  it("C-GET again: every instance is already here, and none is retrieved", async () => {
    const again = await o("pacs.fetch", { body: { patientId: a.patient.id, dryRun: false } });
    expect(again.found).toBe(4);
    expect(again.imported.files.map((f) => f.action)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
    for (const f of again.imported.files) expect(f.items[0]).toMatchObject({ action: "duplicate", measurementId: expect.any(String) });
    expect((await o("perimetry.all", { query: { patientId: a.patient.id } })).filter((m) => m.result !== null)).toHaveLength(4);
  });

  it("C-MOVE to Isopter's storage SCP: a destination the PACS does not know is named; once registered, the same import", async () => {
    const storePort = await freePort();
    await o("dicom.settingsUpdate", { body: settings({ node: node(), retrieve: "move", storePort }) });
    const unknown = await c("pacs.fetch", { body: { patientId: b.patient.id, dryRun: false } });
    expect(unknown.status).toBe(503);
    expect(unknown.responseType).toBe("unavailable");
    expect(unknown.error!.message).toContain(`Isopter's AE title ${ISOPTER_AET} as a move destination`);
    expect(unknown.error!.message).toContain(`The PACS ${orthanc.aet} at 127.0.0.1:${orthanc.dicomPort}`);
    expect(unknown.error!.message).toContain(`port ${storePort}`);

    await orthanc.rest("/modalities/isopter", {
      method: "PUT",
      body: JSON.stringify({ AET: ISOPTER_AET, Host: "127.0.0.1", Port: storePort }),
    });
    const report = await o("pacs.fetch", { body: { patientId: b.patient.id, dryRun: false } });
    expect(report.found).toBe(4);
    expect(report.imported.files.map((f) => f.action)).toEqual(["imported", "imported", "imported", "imported"]);
    await expectImported(b);
    const again = await o("pacs.fetch", { body: { patientId: b.patient.id, dryRun: false } });
    expect(again.imported.files.map((f) => f.action)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
  });

  it("a PACS that is down is a 503 naming its AE title, host and port", async () => {
    const closed = await freePort();
    await o("dicom.settingsUpdate", { body: settings({ node: node({ port: closed }), retrieve: "get", storePort: null }) });
    const down = await c("pacs.fetch", { body: { patientId: a.patient.id, dryRun: false } });
    expect(down.status).toBe(503);
    expect(down.responseType).toBe("unavailable");
    expect(down.error!.message).toContain(`The PACS ${orthanc.aet} at 127.0.0.1:${closed} cannot be reached`);
  });

  it("isopter pacs fetch: the report and the summary line; a patient's unique ID does as well as their id; down exits 4", async () => {
    // The CLI logs in as the manager, which ends the test's session (one session per user): set the settings first.
    await o("dicom.settingsUpdate", { body: settings({ node: node(), retrieve: "get", storePort: null }) });
    const env = { ISOPTER_HOME: tempHome() };
    const cliLogin = async () => {
      const run = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
        env,
        stdin: `${DEMO_PASSWORD}\n`,
      });
      expect(run.code, run.stderr).toBe(0);
    };
    await cliLogin();
    const run = await isopter(["pacs", "fetch", "--patient", a.patient.uniqueId], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${orthanc.aet}/`);
    expect(run.stdout).toContain("duplicate (imported before");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("4 found in the PACS, 0 imported, 4 already here");
    const json = await isopter(["pacs", "fetch", "--patient", a.patient.id, "--dry-run", "--json"], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, found: 4, imported: 0, duplicates: 4, refused: 0 });
    const nobody = await isopter(["pacs", "fetch", "--patient", "NOBODY-HAS-THIS"], { env });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("no patient has the id or unique ID NOBODY-HAS-THIS");

    manager = await login(server.url, "manager");
    await o("dicom.settingsUpdate", { body: settings({ node: node({ port: await freePort() }), retrieve: "get", storePort: null }) });
    await cliLogin();
    const down = await isopter(["pacs", "fetch", "--patient", a.patient.id], { env });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("cannot be reached");
  });
});
