import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Schema } from "effect";
import dcmjs from "dcmjs";
import { analyseRows } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { BundleSchema } from "../../core/import/fhir-schema.ts";
import { OPV_SOP_CLASS_UID } from "../../cli/export/dicom.ts";
import { startHeadsets, type Fleet } from "../../simulator/headset/index.ts";
import { insertMeasurement } from "../../simulator/server/store/measurements.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import type { Patient } from "../../core/model/patient.ts";
import WebSocket from "ws";
import { PROTOCOL_VERSION } from "../../core/device/protocol.ts";
import { call, DEMO_PASSWORD, headsetKeys, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { sampleMeasurement } from "./fixtures.ts";
import { isopter, tempHome } from "./harness.ts";

// The CLI against the simulator's server, started in-process (PGlite in memory, the demo clinic seeded), with two
// virtual headsets of simulator/headset on its device socket.

let server: TestServer;
let fleet: Fleet;
let home: string;
const env = () => ({ ISOPTER_HOME: home });

beforeAll(async () => {
  server = await startTestServer("pglite");
  const serials = ["VR-0001", "VR-0002"];
  fleet = await startHeadsets({
    url: `${server.url.replace(/^http/, "ws")}/device`,
    serials,
    keys: await headsetKeys(server, serials),
    log: () => undefined,
  });
  home = tempHome();
  const login = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(login.code).toBe(0);
  // Wait until both headsets have said hello.
  for (let i = 0; i < 50; i++) {
    const list = JSON.parse((await isopter(["devices", "list", "--json"], { env: env() })).stdout) as Array<{ connection: string }>;
    if (list.filter((d) => d.connection === "CONNECTED").length >= 2) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await server?.drop();
});

describe("login against the simulator", () => {
  it("keeps the token in a 0600 file; a wrong password exits 3", async () => {
    expect(statSync(join(home, "tokens", "default.token")).mode & 0o777).toBe(0o600);
    const bad = await isopter(["login", "--server", server.url, "-u", "manager"], {
      env: { ISOPTER_HOME: tempHome(), ISOPTER_PASSWORD: "wrong-Pass-1" },
    });
    expect(bad.code).toBe(3);
  });
});

describe("export against the simulator", () => {
  it("CSV of the organisation re-imports into analyse with the same numbers as the JSON export", async () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-srv-"));
    const csv = await isopter(["export", "--all", "--pattern", "24-2", "--out", join(dir, "all.csv"), "--json"], { env: env() });
    expect(csv.code).toBe(0);
    const summary = JSON.parse(csv.stdout);
    expect(summary.results).toBeGreaterThan(0);
    const json = await isopter(["export", "--all", "--pattern", "24-2", "--format", "ndjson"], { env: env() });
    const records = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const analysed = analyseRows(parseVisualFieldsCsv(readFileSync(join(dir, "all.csv"), "utf8")));
    expect(analysed).toHaveLength(records.length);
    analysed.forEach((row, i) => {
      const nv = records[i].analysis.normative;
      if (records[i].result.normativeVersion === null || nv === null) return; // another version than analyse's default
      expect(row.tmd).toBeCloseTo(nv.global.tmd, 8);
      expect(row.psd).toBeCloseTo(nv.global.psd, 8);
    });
  });

  /** `--all` and `--patients-file` (every active patient of `username`'s organisation, by id) with the same options. */
  const bothPaths = async (username: string, home: Record<string, string>, options: string[]) => {
    // The patients from the database (a new login would end the CLI's session).
    const rows = await server.db.query<{ id: string }>(
      "select id from patients where trashed_at is null and organisation_id = (select organisation_id from users where username = $1)",
      [username],
    );
    const ids = rows.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const dir = mkdtempSync(join(tmpdir(), "isopter-srv-"));
    writeFileSync(join(dir, "ids.txt"), ids.join("\n"));
    const all = await isopter(["export", "--all", ...options], { env: home });
    const each = await isopter(["export", "--patients-file", join(dir, "ids.txt"), ...options], { env: home });
    expect([all.code, each.code]).toEqual([0, 0]);
    return { all: all.stdout, each: each.stdout };
  };

  it("--all (perimetry/page, patients by id) writes exactly what reading each patient in turn writes", async () => {
    const { all, each } = await bothPaths("manager", env(), ["--format", "ndjson", "--eye", "right", "--from", "2000-01-01"]);
    expect(all.trim().split("\n").length).toBeGreaterThan(5);
    expect(all).toBe(each);
  });

  it("the appointment clinic (appt.user): its taken perimetry examinations, the same through --all and per patient, beside measurements", async () => {
    const apptHome = { ISOPTER_HOME: tempHome() };
    const login = await isopter(["login", "--server", server.url, "-u", "appt.user", "--password-stdin"], {
      env: apptHome,
      stdin: `${DEMO_PASSWORD}\n`,
    });
    expect(login.code).toBe(0);
    const taken = await server.db.query<{ id: string; patient_id: string; appointment_id: string; organisation_id: string }>(
      `select e.id, e.patient_id, e.appointment_id, e.organisation_id from examinations e
       where e.type = 'perimetry' and e.taken_at is not null and e.organisation_id = (select organisation_id from users where username = 'appt.user')
       order by e.taken_at`,
    );
    expect(taken).toHaveLength(2);
    const records = (text: string) =>
      text
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    const { all, each } = await bothPaths("appt.user", apptHome, ["--format", "ndjson"]);
    expect(all).toBe(each);
    const exported = records(all);
    expect(exported.map((r) => [r.kind, r.examination.id, r.examination.appointmentId, r.patient.id, r.result.measurementId])).toEqual(
      taken.map((e) => ["examination", e.id, e.appointment_id, e.patient_id, e.id]),
    );
    expect(exported.every((r) => r.measurement === undefined && r.analysis.normative !== null)).toBe(true);
    // CSV: one row per examination (visualFields layout), FHIR: a DiagnosticReport identified by each examination's id.
    const csv = await isopter(["export", "--all", "--format", "csv", "--pattern", "24-2"], { env: apptHome });
    expect(csv.stdout.trim().split("\n")).toHaveLength(1 + 2);
    const fhir = JSON.parse((await isopter(["export", "--all", "--format", "fhir"], { env: apptHome })).stdout);
    const reports = fhir.entry.filter((e: { resource: { resourceType: string } }) => e.resource.resourceType === "DiagnosticReport");
    expect(reports.map((e: { resource: { identifier: Array<{ value: string }> } }) => e.resource.identifier[0]!.value)).toEqual(
      taken.map((e) => e.id),
    );

    // A clinic that switched variants keeps its measurements: one taken between the two examinations comes between them.
    const patient = (
      await server.db.query<{ id: string; name: string; birthdate: string }>("select id, name, birthdate from patients where id = $1", [
        taken[0]!.patient_id,
      ])
    )[0]!;
    const between = new Date((Date.parse(exported[0].result.takenAt) + Date.parse(exported[1].result.takenAt)) / 2).toISOString();
    const m = { ...sampleMeasurement({ ...(patient as unknown as Patient), id: patient.id }, 0, { takenAt: between }), id: newId() };
    await insertMeasurement(server.db, taken[0]!.organisation_id, { ...m, result: m.result && { ...m.result, measurementId: m.id } }, null);
    const mixed = await bothPaths("appt.user", apptHome, ["--format", "ndjson"]);
    expect(mixed.all).toBe(mixed.each);
    expect(records(mixed.all).map((r) => `${r.kind} ${r.kind === "examination" ? r.examination.id : r.measurement.id}`)).toEqual([
      `examination ${taken[0]!.id}`,
      `measurement ${m.id}`,
      `examination ${taken[1]!.id}`,
    ]);
  });

  it("reliable only keeps fewer or as many; FHIR parses; DICOM files carry the OPV SOP class", async () => {
    const all = JSON.parse(
      (await isopter(["export", "--all", "--format", "ndjson", "--out", "/dev/null", "--json"], { env: env() })).stdout,
    );
    const reliable = JSON.parse(
      (await isopter(["export", "--all", "--format", "ndjson", "--reliable-only", "--out", "/dev/null", "--json"], { env: env() })).stdout,
    );
    expect(reliable.results).toBeLessThanOrEqual(all.results);
    expect(reliable.results + reliable.filteredOut).toBe(all.results);

    const fhir = await isopter(["export", "--all", "--format", "fhir"], { env: env() });
    expect(fhir.code).toBe(0);
    const bundle = Schema.decodeUnknownSync(BundleSchema)(JSON.parse(fhir.stdout), { onExcessProperty: "error" });
    expect(bundle.entry.filter((e) => e.resource.resourceType === "DiagnosticReport")).toHaveLength(all.results);

    const first = bundle.entry.find((e) => e.resource.resourceType === "Patient")!;
    const patientId = JSON.parse((await isopter(["export", "--all", "--format", "ndjson"], { env: env() })).stdout.split("\n")[0]!).patient
      .id;
    const dir = mkdtempSync(join(tmpdir(), "isopter-dcm-"));
    const dcm = await isopter(["export", "-p", patientId, "--format", "dicom", "--out", dir], { env: env() });
    expect(dcm.code).toBe(0);
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThan(0);
    const buf = readFileSync(join(dir, files.find((f) => !f.endsWith("_report.dcm"))!));
    const dict = dcmjs.data.DicomMessage.readFile(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    expect((dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict) as { SOPClassUID: string }).SOPClassUID).toBe(OPV_SOP_CLASS_UID);
    expect(first.fullUrl).toMatch(/^urn:uuid:/);
  });
});

describe("devices against the simulator", () => {
  it("list shows status, battery, connection and queue", async () => {
    const run = await isopter(["devices", "list"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^serial\s+alias\s+status\s+connection\s+VR battery\s+clicker\s+queue\s+last seen/);
    expect(run.stdout).toMatch(/VR-0001 .* CONNECTED\s+\d+%/);
    const rows = JSON.parse((await isopter(["devices", "list", "--json"], { env: env() })).stdout);
    expect(rows.find((r: { deviceSn: string }) => r.deviceSn === "VR-0001")).toMatchObject({
      connection: "CONNECTED",
      battery: { vr: expect.any(Number) },
    });
  });

  it("ping measures round trips over the live socket", async () => {
    const run = await isopter(["devices", "ping", "-c", "3", "--interval", "20", "--json"], { env: env() });
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ sent: 3, received: 3 });
    expect(r.rttMs.every((v: number) => v >= 0)).toBe(true);
  });

  it("diagnose sees about one heartbeat a second from a virtual headset", async () => {
    const run = await isopter(["devices", "diagnose", "VR-0001", "--duration", "3.5", "--json"], { env: env() });
    expect(run.code).toBe(0);
    const d = JSON.parse(run.stdout);
    expect(d.heartbeats).toBeGreaterThanOrEqual(2);
    expect(d.interval.medianMs).toBeGreaterThan(500);
    expect(d.interval.medianMs).toBeLessThan(2000);
    expect(d.current.deviceSn).toBe("VR-0001");
  });

  it("diagnose of an unknown serial exits 1 naming the known ones", async () => {
    const run = await isopter(["devices", "diagnose", "VR-9999", "--duration", "0"], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no device VR-9999 .*known: .*VR-0001/);
  });

  it("enrol prints a pairing code once, a headset pairs with it; revoke closes it at once; enrolling twice exits 1, --again issues a new secret", async () => {
    const run = await isopter(["devices", "enrol", "VR-0009", "--alias", "Room 9"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const code = /Pairing code: (\S+)/.exec(run.stdout)?.[1] ?? "";
    expect(code).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);
    expect(run.stdout).toMatch(/shown only this once/);
    const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/device`);
    const frames: Array<{ type: string; reason?: string }> = [];
    socket.on("message", (d) => frames.push(JSON.parse(d.toString())));
    const closed = new Promise<number>((resolve) => socket.once("close", (c) => resolve(c)));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(
      JSON.stringify({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0009", firmware: "cli-test", pairingCode: code }),
    );
    await expect.poll(() => frames.map((f) => f.type).slice(0, 2)).toEqual(["enrolled", "welcome"]);
    const twice = await isopter(["devices", "enrol", "VR-0009"], { env: env() });
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringMatching(/409 conflict: Headset VR-0009 is already enrolled here/)]);
    const revoked = await isopter(["devices", "revoke", "VR-0009", "--json"], { env: env() });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ deviceSn: "VR-0009", alias: "Room 9", state: "revoked" });
    expect(await closed).toBe(4003);
    expect(frames.at(-1)).toMatchObject({ type: "refused", reason: "revoked" });
    const again = await isopter(["devices", "enrol", "VR-0009", "--again", "--credential", "--json"], { env: env() });
    expect(JSON.parse(again.stdout)).toMatchObject({
      headset: { state: "enrolled" },
      secret: { kind: "credential", value: expect.stringMatching(/^isd1\./) },
    });
    const unknown = await isopter(["devices", "revoke", "VR-7777"], { env: env() });
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/no headset VR-7777 .*known: .*VR-0009/)]);
  });

  it("watch prints the live table (piped: one table per change) and stops after --duration", async () => {
    const run = await isopter(["devices", "watch", "--duration", "1.5", "--json"], { env: env() });
    expect(run.code).toBe(0);
    const frames = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(frames.length).toBeGreaterThanOrEqual(1);
    expect(frames[0].devices.map((d: { deviceSn: string }) => d.deviceSn)).toEqual(expect.arrayContaining(["VR-0001", "VR-0002"]));
  });
});

describe("perimetry.all as the export reads it (one query for the patient and its results)", () => {
  it("answers a patient's results newest first, [] for a patient without any, not_found for an unknown one", async () => {
    const token = await login(server.url, "admin");
    const first = (
      await ok(server.url, "patient.search", { body: { filter: { name: "", birthdate: null }, page: 0, quantity: 50 } }, token)
    ).entries;
    let checked = 0;
    for (const p of first) {
      const all = await ok(server.url, "perimetry.all", { query: { patientId: p.id } }, token);
      const taken = all.map((m) => m.result?.takenAt ?? m.createdAt);
      expect(taken).toEqual([...taken].sort().reverse());
      expect(all.every((m) => m.patientId === p.id && m.trashedAt === null)).toBe(true);
      checked += all.length;
    }
    expect(checked).toBeGreaterThan(0);
    const fresh = await ok(
      server.url,
      "patient.register",
      { body: { name: "No Results", uniqueId: "NR-1", gender: 0, lang: "en", birthdate: "1970-01-01" } },
      token,
    );
    expect(await ok(server.url, "perimetry.all", { query: { patientId: fresh.id } }, token)).toEqual([]);
    const unknown = await call(server.url, "perimetry.all", { query: { patientId: "no-such-patient" } }, token);
    expect(unknown).toMatchObject({ status: 404, responseType: "not_found", error: { field: "query.patientId" } });
  });
});
