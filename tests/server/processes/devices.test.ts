import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { newId } from "../../../simulator/server/store/ids.ts";
import { call, credentialFor, fakeHeadset, liveSocket, login, ok } from "../harness.ts";
import { isEvent, measurementBody, onBuses, sleep, startProcesses, until, type Processes } from "./harness.ts";

// Issue 17 §1 on two processes, A and B, on one PostgreSQL: device commands, queue changes, refusals and presence
// reach the headset on whichever process it is connected to; logins, sessions and drag revisions agree because they
// live in the database. "Command to device failed: error sending the command to the VR device; use the controller or
// clicker" (scheduling §8) is the answer to a command that is refused, lost or unanswered, wherever it was sent.

const FAILED = "Error sending the command to the VR device; use the controller or clicker";
const queued = (id: string) => (m: Record<string, unknown>) =>
  m.type === "queue" && (m.items as Array<{ measurementId?: string }>).some((i) => i.measurementId === id);
const notQueued = (id: string) => (m: Record<string, unknown>) =>
  m.type === "queue" && !(m.items as Array<{ measurementId?: string }>).some((i) => i.measurementId === id);

onBuses("processes: devices across processes", (bus) => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;
  const devices = () => ok(a.url, "device.all", {}, token);
  beforeAll(async () => {
    p = await startProcesses(2, { settings: { commandTimeoutMs: 700, deviceSilenceMs: 60_000, loginFailuresAllowed: 3 } }, bus);
    [a, b] = p.servers as [RunningServer, RunningServer];
    token = await login(a.url, "manager");
  }, 60_000);
  afterAll(() => p?.close());

  it("device/update {status} through a process the headset is not connected to reaches it; its ack, refusal, silence or loss comes back to the caller", async () => {
    const d = (await devices())[0]!;
    const credential = await credentialFor(a, d.deviceSn);
    const onB = await liveSocket(b.url, token);
    const absent = await call(b.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token);
    expect([absent.status, absent.responseType, absent.error?.message]).toEqual([
      409,
      "device_not_connected",
      `${FAILED} (the device is not connected)`,
    ]);

    const acking = await fakeHeadset(a, d.deviceSn, { ack: "ok", credential });
    acking.send({ type: "status", status: "awaitmeasurement" });
    await onB.next(
      isEvent("device", "update", (e) => e.deviceSn === d.deviceSn && (e.data as { status?: string }).status === "awaitmeasurement"),
    );
    const started = await call(b.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token);
    expect(started.status).toBe(200);
    expect((await acking.next((m) => m.type === "command")).kind).toBe("start");
    await acking.close();

    const refusing = await fakeHeadset(a, d.deviceSn, { ack: "refuse", credential });
    const refused = await call(b.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token);
    expect([refused.status, refused.responseType, refused.error?.message]).toEqual([409, "device_not_connected", `${FAILED} (busy)`]);
    await refusing.close();

    const silent = await fakeHeadset(a, d.deviceSn, { ack: "never", credential });
    const unanswered = await call(b.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token);
    expect([unanswered.status, unanswered.error?.message]).toEqual([409, `${FAILED} (no answer from the device)`]);
    // The headset goes while the command waits: the failure comes back at once, not after the timeout.
    const waiting = call(b.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token);
    await silent.next((m) => m.type === "command" && silent.received.filter((x) => x.type === "command").length === 2);
    await silent.close();
    const lost = await waiting;
    expect([lost.status, lost.error?.message]).toEqual([409, FAILED]);
    onB.close();
  });

  it("a measurement registered, moved or trashed through one process reaches the headset's queue on the other; so does stand-alone", async () => {
    const [x, y] = await devices();
    const onA = await fakeHeadset(a, x!.deviceSn);
    const onB = await fakeHeadset(b, y!.deviceSn);
    const patient = await ok(
      a.url,
      "patient.register",
      { body: { name: "Queue Across", uniqueId: `U-${newId().slice(0, 8)}`, gender: 0, lang: "en", birthdate: "1950-01-01" } },
      token,
    );
    const [m] = await ok(b.url, "perimetry.register", { body: measurementBody(patient.id, x!.deviceSn) }, token);
    await onA.next(queued(m!.id));
    const lane = async (sn: string) => (await devices()).find((d) => d.deviceSn === sn)!;
    const from = await lane(x!.deviceSn);
    const to = await lane(y!.deviceSn);
    await ok(
      a.url,
      "device.dragAndDropPerimetry",
      {
        body: {
          movedPerimetryId: m!.id,
          from: {
            deviceId: from.id,
            perimetriesIds: from.perimetries.map((q) => q.id).filter((id) => id !== m!.id),
            revision: from.revision,
          },
          to: { deviceId: to.id, perimetriesIds: [m!.id, ...to.perimetries.map((q) => q.id)], revision: to.revision },
        },
      },
      token,
    );
    await onB.next(queued(m!.id));
    const mark = onA.received.length;
    await onA.next(() => onA.received.slice(mark - 1).some(notQueued(m!.id)));
    // A stale revision on the other process is refused: the revisions are the database's.
    const stale = await call(
      b.url,
      "device.dragAndDropPerimetry",
      {
        body: {
          movedPerimetryId: m!.id,
          from: { deviceId: to.id, perimetriesIds: to.perimetries.map((q) => q.id), revision: to.revision },
          to: {
            deviceId: from.id,
            perimetriesIds: [m!.id, ...from.perimetries.map((q) => q.id).filter((id) => id !== m!.id)],
            revision: from.revision,
          },
        },
      },
      token,
    );
    expect([stale.status, stale.responseType]).toEqual([409, "device_revision_conflict"]);
    await ok(a.url, "perimetry.trash", { query: { id: m!.id } }, token);
    await onB.next(
      (q) =>
        notQueued(m!.id)(q) &&
        onB.received.filter(queued(m!.id)).length > 0 &&
        onB.received.indexOf(q) > onB.received.findIndex(queued(m!.id)),
    );
    const { patientId: _p, deviceSn: _d, notes: _n, ...config } = measurementBody(patient.id, y!.deviceSn);
    const on = await ok(
      a.url,
      "device.standalone",
      { query: { deviceSn: y!.deviceSn }, body: { ...config, patientId: patient.id } },
      token,
    );
    await onB.next((q) => q.type === "standalone" && q.standaloneId === on!.id);
    await call(a.url, "device.standalone", { query: { deviceSn: y!.deviceSn }, body: null }, token);
    await onB.next((q) => q.type === "standalone" && q.standaloneId === null && onB.received.some((r) => r.standaloneId === on!.id));
    await onA.close();
    await onB.close();
  });

  it("a headset that connects to the other process closes its older socket there and stays connected; a wrong credential cannot take it over", async () => {
    const d = (await devices())[1]!;
    const credential = await credentialFor(a, d.deviceSn);
    const first = await fakeHeadset(a, d.deviceSn, { credential });
    const firstClosed = new Promise<number>((r) => first.socket.once("close", (code) => r(code)));
    const intruder = await fakeHeadset(b, d.deviceSn, { credential: "isd1.wrong-credential-wrong-credential-wrong-cred" });
    expect(intruder.received.at(-1)).toMatchObject({ type: "refused", reason: "already-connected" });
    const second = await fakeHeadset(b, d.deviceSn, { credential });
    expect(await firstClosed).toBe(4000);
    await sleep(500); // the first socket's close has run on A
    const row = (await a.db.query<{ connection: string }>("select connection from devices where device_sn = $1", [d.deviceSn]))[0]!;
    const held = (
      await a.db.query<{ process_id: string }>("select process_id from device_presence where device_sn = $1", [d.deviceSn])
    )[0]!;
    expect([row.connection, held.process_id]).toEqual(["CONNECTED", b.ctx.bus.processId]);
    second.send({ type: "status", status: "standby" });
    await until("status stored", async () => (await devices()).find((x) => x.deviceSn === d.deviceSn)!.status === "standby");
    expect((await call(a.url, "device.update", { query: { id: d.id }, body: { status: "playing" } }, token)).status).toBe(200);
    await second.close();
  });

  it("revoked through one process, the headset connected to the other is refused and closed", async () => {
    const d = (await devices())[2]!;
    const headset = await fakeHeadset(b, d.deviceSn);
    const closed = new Promise<number>((r) => headset.socket.once("close", (code) => r(code)));
    const enrolment = (await ok(a.url, "device.enrolments", {}, token)).find((h) => h.deviceSn === d.deviceSn)!;
    await ok(a.url, "device.revoke", { query: { id: enrolment.id } }, token);
    expect(await headset.next((m) => m.type === "refused")).toMatchObject({ reason: "revoked" });
    expect(await closed).toBe(4003);
  });

  it("login limits count the failures made through every process together", async () => {
    const fail = (s: RunningServer) => call(s.url, "login", { body: { username: "user", password: "Wrong-Pass-1!" } });
    const answers = [await fail(a), await fail(b), await fail(a), await fail(b)];
    expect(answers.map((x) => x.status)).toEqual([401, 401, 401, 429]);
    const right = await call(a.url, "login", { body: { username: "user", password: "Demo-Pass-123" } });
    expect([right.status, right.responseType]).toEqual([429, "rate_limited"]);
  });
});
