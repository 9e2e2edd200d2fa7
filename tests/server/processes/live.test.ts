import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { LiveEvent, LiveMessage } from "../../../core/model/live.ts";
import { demoResult } from "../../../simulator/server/demo/results.ts";
import { liveMessage } from "../../../simulator/server/bus/messages.ts";
import { channelOf } from "../../../simulator/server/bus/postgres-transport.ts";
import { orgSubject } from "../../../simulator/server/bus/subjects.ts";
import { newId } from "../../../simulator/server/store/ids.ts";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { call, fakeHeadset, liveSocket, login, ok } from "../harness.ts";
import { isEvent, measurementBody, onBuses, patientNamed, sleep, startProcesses, type Processes } from "./harness.ts";

// Issue 17 §1: live events and ended sessions cross processes. Any change made through any process, and headsets'
// statuses, heartbeats, live progress and results, reach the browsers' live sockets on every process, in order per
// device; a message bigger than NOTIFY's 8000 bytes goes through the bus_events table; a payload that does not decode
// is logged and skipped. On both buses (issue 32 §2); the cases of PostgreSQL's wire (NOTIFY's size limit, packing,
// a notification that does not decode) are PostgreSQL's alone: NATS's are in live-nats.test.ts.

onBuses("processes: live events", (bus) => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    p = await startProcesses(2, { settings: { deviceSilenceMs: 60_000 } }, bus);
    [a, b] = p.servers as [RunningServer, RunningServer];
    tokenA = await login(a.url, "manager");
    tokenB = await login(b.url, "user");
  }, 60_000);
  afterAll(() => p?.close());

  it("a change made through one process reaches the browsers on every process", async () => {
    const onA = await liveSocket(a.url, tokenA);
    const onB = await liveSocket(b.url, tokenB);
    const patient = await ok(
      a.url,
      "patient.register",
      { body: { name: "Across Processes", uniqueId: `U-${newId().slice(0, 8)}`, gender: 0, lang: "en", birthdate: "1961-02-03" } },
      tokenA,
    );
    for (const socket of [onA, onB]) await socket.next(isEvent("patient", "insert", (e) => (e.data as { id: string }).id === patient.id));
    const [device] = await ok(b.url, "device.all", {}, tokenB);
    await ok(b.url, "device.update", { query: { id: device!.id }, body: { alias: "Room across" } }, tokenB);
    for (const socket of [onA, onB])
      await socket.next(isEvent("device", "update", (e) => (e.data as { alias?: string }).alias === "Room across"));
    onA.close();
    onB.close();
  });

  it("a headset's status, heartbeat, progress and result on one process reach a browser on another, progress in order", async () => {
    const onB = await liveSocket(b.url, tokenB);
    const [, d] = await ok(a.url, "device.all", {}, tokenA);
    const sn = d!.deviceSn;
    const headset = await fakeHeadset(a, sn);
    await onB.next(
      isEvent("connection", "update", (e) => e.deviceSn === sn && (e.data as { connection: string }).connection === "CONNECTED"),
    );
    headset.send({ type: "status", status: "awaitmeasurement" });
    await onB.next(isEvent("device", "update", (e) => e.deviceSn === sn && (e.data as { status?: string }).status === "awaitmeasurement"));
    headset.send({ type: "heartbeat", battery: { vr: 77, clicker: 33, vrCharging: false, clickerCharging: false } });
    await onB.next(
      isEvent("device", "update", (e) => e.deviceSn === sn && (e.data as { battery?: { vr: { level: number } } }).battery?.vr.level === 77),
    );
    // device/all through B shows the battery A heard (A writes it to the database only every few seconds).
    expect((await ok(b.url, "device.all", {}, tokenB)).find((x) => x.deviceSn === sn)!.battery.vr.level).toBe(77);

    const patient = await ok(
      a.url,
      "patient.register",
      { body: { name: "Live Progress", uniqueId: `U-${newId().slice(0, 8)}`, gender: 0, lang: "en", birthdate: "1950-01-01" } },
      tokenA,
    );
    const [m] = await ok(a.url, "perimetry.register", { body: measurementBody(patient.id, sn) }, tokenA);
    await headset.next((x) => x.type === "queue" && (x.items as Array<{ measurementId?: string }>).some((i) => i.measurementId === m!.id));
    const mark = onB.messages.length;
    for (let n = 1; n <= 54; n++)
      headset.send({
        type: "progress",
        perimetryId: m!.id,
        appointmentId: null,
        nTested: n,
        nLocations: 54,
        thresholds: [{ index: n - 1, dBValue: 28, answerTime: 400 }],
        lastUpdatedIndex: n - 1,
        gazeTracking: true,
      });
    await onB.next(
      isEvent("measurement", "measurement_progress", (e) => (e.data as { nTested: number }).nTested === 54),
      5000,
      mark,
    );
    const seen = onB.messages
      .slice(mark)
      .filter(isEvent("measurement", "measurement_progress"))
      .map((e) => ((e as LiveEvent).data as { nTested: number }).nTested);
    expect(seen).toEqual(Array.from({ length: 54 }, (_, i) => i + 1));

    const result = demoResult({
      measurementId: m!.id,
      patientId: patient.id,
      takenAt: new Date().toISOString(),
      ageYears: 74,
      yearsIntoCourse: 0,
      course: "healthy",
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      deviceAlias: d!.alias,
      seed: 5,
    });
    headset.send({ type: "result", measurementId: m!.id, result });
    const ready = await onB.next(isEvent("measurement", "measurement_result_ready", (e) => (e.data as { id: string }).id === m!.id));
    expect((ready as LiveEvent).deviceSn).toBe(sn);
    await headset.close();
    await onB.next(
      isEvent("connection", "update", (e) => e.deviceSn === sn && (e.data as { connection: string }).connection === "DISCONNECTED"),
    );
    onB.close();
  });

  /** A case of PostgreSQL's wire: registered on that bus only. */
  const onPostgresBus = (name: string, test: () => Promise<void>) => void (bus === "postgres" && it(name, test));

  onPostgresBus("a message bigger than NOTIFY's 8000 bytes reaches the other process through the bus_events table", async () => {
    const onB = await liveSocket(b.url, tokenB);
    const org = (await ok(a.url, "organisation.current", {}, tokenA)).id;
    const before = (await a.db.query<{ n: number }>("select count(*)::int as n from bus_events"))[0]!.n;
    const address = "x".repeat(20_000);
    a.ctx.live.publish(org, { type: "patient", operation: "update", data: { ...patientNamed("big-one"), address } });
    const got = await onB.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "big-one"));
    expect(((got as LiveEvent).data as { address: string }).address).toBe(address);
    expect((await a.db.query<{ n: number }>("select count(*)::int as n from bus_events"))[0]!.n).toBe(before + 1);
    onB.close();
  });

  onPostgresBus("a burst of messages is packed several to a notification and reaches the other process whole and in order", async () => {
    const onB = await liveSocket(b.url, tokenB);
    const org = (await ok(a.url, "organisation.current", {}, tokenA)).id;
    const listener = new pg.Client({ connectionString: p.url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on("notification", (n) => payloads.push(n.payload ?? ""));
    await listener.query(`listen "${channelOf(orgSubject(org))}"`);
    try {
      // 300 updates of about 1 kB each, published at once, and one of 20 kB in the middle (stored, in its place).
      const ids = Array.from({ length: 300 }, (_, i) => `burst-${i}`);
      for (const [i, id] of ids.entries()) {
        const address = i === 150 ? "y".repeat(20_000) : "x".repeat(1_000);
        a.ctx.live.publish(org, { type: "patient", operation: "update", data: { ...patientNamed(id), address } });
      }
      const last = (x: LiveMessage) => isEvent("patient", "update", (e) => (e.data as { id: string }).id === "burst-299")(x);
      await onB.next(last, 10_000);
      const heard = onB.messages.flatMap((m) =>
        "operation" in m && m.type === "patient" && (m.data as { id: string }).id.startsWith("burst-")
          ? [(m.data as { id: string }).id]
          : [],
      );
      expect(heard).toEqual(ids);
      const fromA = payloads.filter((x) => x.includes("burst-") || x.includes('"stored"'));
      expect(fromA.length).toBeLessThan(ids.length / 3);
      for (const x of fromA) expect(Buffer.byteLength(x)).toBeLessThan(8_000);
    } finally {
      await listener.end();
      onB.close();
    }
  });

  onPostgresBus("a notification that does not decode is logged and skipped; the process goes on", async () => {
    const onA = await liveSocket(a.url, tokenA);
    const onB = await liveSocket(b.url, tokenB);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const client = new pg.Client({ connectionString: p.url });
    await client.connect();
    const org = (await ok(a.url, "organisation.current", {}, tokenA)).id;
    const CHANNEL = channelOf(orgSubject(org));
    try {
      await client.query(`select pg_notify('${CHANNEL}', $1)`, ["not json at all"]);
      await client.query(`select pg_notify('${CHANNEL}', $1)`, [
        JSON.stringify({ from: "elsewhere", seq: 1, messages: [{ type: "live", organisationId: 7 }] }),
      ]);
      await client.query(`select pg_notify('${CHANNEL}', $1)`, [JSON.stringify({ from: "elsewhere", seq: 2, stored: 999_999_999 })]);
      // The event as an object, not its text: no browser hears it; the good one after it, in the same payload, reaches all.
      const patient = (id: string) => ({ type: "patient", operation: "update", data: patientNamed(id) }) as LiveEvent;
      await client.query(`select pg_notify('${CHANNEL}', $1)`, [
        JSON.stringify({
          from: "elsewhere",
          seq: 3,
          messages: [{ ...liveMessage(org, patient("malformed")), text: patient("malformed") }, liveMessage(org, patient("after-garbage"))],
        }),
      ]);
      for (const socket of [onA, onB])
        await socket.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "after-garbage"));
    } finally {
      spy.mockRestore();
      await client.end();
    }
    for (const socket of [onA, onB])
      expect(socket.messages.filter((m) => "operation" in m && (m.data as { id?: string }).id === "malformed")).toEqual([]);
    const skipped = lines.filter((l) => l.includes("bus_message_skipped"));
    // Each process skipped each of the four: not JSON, organisationId not a string, a stored message that is gone, an
    // event that is not text.
    expect(skipped.filter((l) => l.includes("Not JSON")).length).toBe(2);
    expect(skipped.filter((l) => l.includes("organisationId: Expected string")).length).toBe(2);
    expect(skipped.filter((l) => l.includes("999999999")).length).toBe(2);
    expect(skipped.filter((l) => l.includes("text: Expected string")).length).toBe(2);
    for (const s of [a, b]) expect((await fetch(`${s.url}/api/ready`)).status).toBe(200);
    onA.close();
    onB.close();
  });

  it("sessions: a login on one process ends the user's session on another at once (another session opened), a logout there closes its socket", async () => {
    const first = await login(a.url, "admin");
    const onA = await liveSocket(a.url, first);
    const started = Date.now();
    const second = await login(b.url, "admin");
    await onA.next((m) => m.type === "another_session_opened", 3000);
    // Pushed through the bus, not found by the socket's own check every 5 s.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await onA.closed).toBe(4001);
    expect((await call(a.url, "checkToken", {}, first)).status).toBe(401);
    const onA2 = await liveSocket(a.url, second);
    await ok(b.url, "logout", {}, second);
    await onA2.next((m) => m.type === "token_verification_error", 3000);
    expect(await onA2.closed).toBe(4001);
    await sleep(0);
  });
});
