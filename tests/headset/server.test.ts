import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLiveEvent, type LiveEvent, type LiveMessage } from "../../core/model/live.ts";
import { DeviceStatus, Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../../core/model/enums.ts";
import type { MeasurementBody } from "../../core/model/measurement.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";
import { call, credentialFor, liveSocket, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { TimePump } from "./time-pump.ts";

// The virtual headset against the real server in-process (PGlite in memory, port 0), watched through a browser's live
// socket: connection, commands with acks and the status sequence, a measurement to a stored result, an appointment,
// disconnection, and stand-alone results stored once each. The headsets run on simulated time (time-pump.ts) that moves
// only while a test lets it: a test that asks the server something first holds the headset still and waits until the
// server has caught up with it, so what is checked does not depend on how fast this machine is at the moment.

const SPEED = 50;
const S = DeviceStatus;
/** Simulated time any one step of a test may take (a whole appointment at SPEED takes about 15 s). */
const WITHIN_MS = 5 * 60_000;

const isEvent =
  (type: string, operation: string, test: (e: LiveEvent) => boolean = () => true) =>
  (m: LiveMessage) =>
    isLiveEvent(m) && m.type === type && m.operation === operation && test(m);

const body = (patientId: string, deviceSn: string, over: Partial<MeasurementBody> = {}): MeasurementBody => ({
  patientId,
  deviceSn,
  displayName: "Sim run",
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.SORS,
  stimuliUpdate: StimuliUpdate.Ms1000,
  stimuliSize: StimulusSize.III_ADAPTIVE,
  stimuliShowtime: Showtime.Ms200,
  sorsStage: 10,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
  notes: "",
  ...over,
});

describe("virtual headset against the in-process server", () => {
  let server: TestServer;
  let token: string;
  let live: Awaited<ReturnType<typeof liveSocket>>;
  const pump = new TimePump();
  const headsets: VirtualHeadset[] = [];
  const devices = async () => ok(server.url, "device.all", {}, token);
  const deviceRow = async (id: string) => (await devices()).find((x) => x.id === id)!;
  // Every simulated patient healthy: a patient id maps to a profile of a clinic's mix, and a deep defect can make the
  // headset pause a test for a silent patient (ids are random here, so a test would pause now and then).
  /** Each device's credential (enrolled in beforeAll). */
  const credentials = new Map<string, string>();
  const headsetFor = (deviceSn: string) => {
    const h = new VirtualHeadset({
      deviceSn,
      credential: credentials.get(deviceSn)!,
      clock: pump.clock,
      connector: wsConnector(`${server.url.replace(/^http/, "ws")}/device`),
      speed: SPEED,
      seed: deviceSn,
      profile: "healthy",
    });
    headsets.push(h);
    return h.start();
  };
  const patient = async (name: string) =>
    ok(
      server.url,
      "patient.register",
      { body: { name, uniqueId: `H-${name.replace(/\W/g, "")}`, gender: 0, lang: "en", birthdate: "1958-03-03" } },
      token,
    );
  /** Hold the headset still until the server has its status (it handles a headset's frames in order: and all before). */
  const serverHasStatus = (deviceId: string, h: VirtualHeadset) =>
    pump.settle(`the server to see ${h.deviceSn} ${h.status}`, async () => (await deviceRow(deviceId)).status === h.status);
  /** A live message since `mark` passes the test (for simulated-time waits). */
  const seen = (mark: number, test: (m: LiveMessage) => boolean) => () => live.messages.slice(mark).some(test);

  beforeAll(async () => {
    // Heartbeats follow simulated time, which stands still while a test waits for the server: the 4 s silence rule is
    // tested on its own (tests/server/roles.test.ts), here it would only add noise.
    server = await startTestServer("pglite", { settings: { commandTimeoutMs: 8_000, deviceSilenceMs: 10 * 60_000 } });
    token = await login(server.url, "manager");
    for (const d of await devices()) credentials.set(d.deviceSn, await credentialFor(server, d.deviceSn));
    live = await liveSocket(server.url, token);
  }, 150_000);
  afterAll(async () => {
    for (const h of headsets) h.stop();
    live?.close();
    await server?.drop();
  });

  it("connects with its serial: connection event CONNECTED, status standby, batteries in the device list", async () => {
    const d = (await devices())[0]!;
    const mark = live.messages.length;
    const h = headsetFor(d.deviceSn);
    await pump.run("connected", () => h.connected, 10_000);
    await live.next(
      isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn && (e.data as { connection: string }).connection === "CONNECTED"),
      30_000,
      mark,
    );
    await pump.settle("a heartbeat with batteries", async () => {
      const row = await deviceRow(d.id);
      const queued = row.perimetries.length + (row.appointments?.length ?? 0) > 0;
      return (
        row.connection === "CONNECTED" &&
        row.status === (queued ? S.AwaitMeasurement : S.Standby) &&
        typeof row.battery?.vr.level === "number" &&
        typeof row.battery?.clicker.level === "number"
      );
    });
    expect(h.connected).toBe(true);
  }, 150_000);

  it("a start command is acknowledged; the headset walks the sequence, streams progress and the server stores the result", async () => {
    const d = (await devices())[0]!;
    const h = headsets.find((x) => x.deviceSn === d.deviceSn)!;
    // Clear the demo clinic's lane so ours are the leftmost items.
    for (const x of d.perimetries) await ok(server.url, "perimetry.trash", { query: { id: x.id } }, token);
    for (const x of d.appointments ?? []) await ok(server.url, "appointment.trash", { query: { id: x.id } }, token);
    const p = await patient("Seq Walker");
    const [m] = await ok(server.url, "perimetry.register", { body: body(p.id, d.deviceSn) }, token);
    const [second] = await ok(server.url, "perimetry.register", { body: body(p.id, d.deviceSn, { eye: Eye.Left }) }, token);
    await pump.settle(
      "the queue on the headset",
      () => h.queue.length === 2 && h.queue[0]!.kind === "measurement" && h.queue[0]!.measurementId === m!.id,
    );
    expect(h.status).toBe(S.AwaitMeasurement);
    await serverHasStatus(d.id, h);
    const mark = live.messages.length;
    const statuses: string[] = [];
    h.events.on("status", (s) => statuses.push(s));
    // The technician's "play": PATCH device/update {status: playing} answers once the headset acked the start command.
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Playing } }, token);
    await pump.run(
      "the result ready",
      seen(
        mark,
        isEvent("measurement", "measurement_result_ready", (e) => (e.data as { id: string }).id === m!.id),
      ),
      WITHIN_MS,
    );
    expect(statuses.slice(0, 6)).toEqual([S.AudioPlaying, S.Countdown, S.Calibrating, S.AwaitUserInput, S.Playing, S.Finished]);
    const progress = live.messages.slice(mark).filter(isEvent("measurement", "measurement_progress", (e) => e.deviceSn === d.deviceSn));
    expect(progress.length).toBeGreaterThan(5);
    expect((progress.at(-1) as LiveEvent).data).toMatchObject({ perimetryId: m!.id, nLocations: 10 });
    const stored = await ok(server.url, "perimetry.get", { query: { id: m!.id } }, token);
    expect(stored.result).toMatchObject({
      measurementId: m!.id,
      patientId: p.id,
      pattern: Pattern.P24_2,
      strategy: Strategy.SORS,
      sorsStage: 10,
    });
    expect(stored.result!.thresholds.length).toBe(54);
    await pump.run("the result confirmed on the headset", () => h.pendingResults === 0, WITHIN_MS);
    // The next one waits for the technician.
    await pump.run(
      "awaiting the second",
      () =>
        h.status === S.AwaitMeasurement &&
        h.queue.length === 1 &&
        h.queue[0]!.kind === "measurement" &&
        h.queue[0]!.measurementId === second!.id,
      WITHIN_MS,
    );
    expect(h.running).toBeNull();
    // The server saw the statuses too.
    await serverHasStatus(d.id, h);
    const published = live.messages
      .slice(mark)
      .filter(isEvent("device", "update", (e) => e.deviceSn === d.deviceSn))
      .map((e) => ((e as LiveEvent).data as { status: string }).status);
    expect(published).toContain(S.Playing);
    expect(published).toContain(S.Finished);
  }, 150_000);

  it("an appointment: the headset runs its examinations in order and the server marks each taken with its result", async () => {
    const d = (await devices())[0]!;
    const h = headsets.find((x) => x.deviceSn === d.deviceSn)!;
    for (const x of d.perimetries) await ok(server.url, "perimetry.trash", { query: { id: x.id } }, token);
    const p = await patient("Appoint Headset");
    const exam = (type: "amsler" | "perimetry" | "acuity" | "color-blindness") => ({
      patientId: p.id,
      type,
      deviceSn: d.deviceSn,
      eye: Eye.Right,
      notes: "",
      config:
        type === "perimetry"
          ? {
              pattern: Pattern.P24_2,
              strategy: Strategy.Supra,
              stimuliUpdate: StimuliUpdate.Ms1000,
              stimuliSize: StimulusSize.III,
              stimuliShowtime: Showtime.Ms200,
              sorsLocations: 36 as const,
              sorsStage: 36 as const,
              playSound: false,
              trackGaze: true,
              audioGuide: true,
            }
          : null,
    });
    const appt = await ok(
      server.url,
      "appointment.registerWithExaminations",
      {
        body: {
          audioGuide: true,
          tutorial: false,
          trackGaze: true,
          deviceSn: d.deviceSn,
          patientId: p.id,
          standaloneId: null,
          examinations: [exam("amsler"), exam("perimetry"), exam("acuity"), exam("color-blindness")],
        },
      },
      token,
    );
    await pump.settle(
      "the appointment on the headset",
      () => h.queue.length === 1 && h.queue[0]!.kind === "appointment" && h.queue[0]!.appointmentId === appt.id,
    );
    await serverHasStatus(d.id, h);
    const mark = live.messages.length;
    const order: string[] = [];
    h.events.on("upload", (u) => u.type === "examinationResult" && u.appointmentId === appt.id && order.push(u.outcome.type));
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Playing } }, token);
    const taken = () =>
      new Set(
        live.messages
          .slice(mark)
          .filter(
            isEvent(
              "examination",
              "measurement_result_ready",
              (e) => (e.data as { appointmentId: string | null }).appointmentId === appt.id,
            ),
          )
          .map((e) => ((e as LiveEvent).data as { id: string }).id),
      ).size;
    await pump.run("every examination taken", () => taken() === 4, WITHIN_MS);
    expect(order).toEqual(["amsler", "perimetry", "acuity", "color-blindness"]);
    const stored = await ok(server.url, "examination.all", { query: { patientId: p.id, taken: true } }, token);
    expect(stored.length).toBe(4);
    expect(stored.find((e) => e.type === "amsler")?.result).toMatchObject({
      answer: expect.any(String),
      deviceSn: d.deviceSn,
      appointmentId: appt.id,
    });
    expect(stored.find((e) => e.type === "perimetry")?.result).toMatchObject({ pattern: Pattern.P24_2, strategy: Strategy.Supra });
    await pump.run("the lane empty and the headset in standby", () => h.queue.length === 0 && h.status === S.Standby, WITHIN_MS);
  }, 150_000);

  it("pause and stop are acknowledged; a refused command (pause while not playing) fails with the command error", async () => {
    const d = (await devices())[1]!;
    const h = headsetFor(d.deviceSn);
    await pump.run("connected", () => h.connected, 10_000);
    const p = await patient("Pause Stopper");
    const [m] = await ok(
      server.url,
      "perimetry.register",
      { body: body(p.id, d.deviceSn, { strategy: Strategy.Normal, sorsStage: 36, audioGuide: false, trackGaze: false }) },
      token,
    );
    await pump.settle("queued", () => h.queue.some((i) => i.kind === "measurement" && i.measurementId === m!.id));
    // The server turns "play" into start or resume by the status it has: let it have the headset's.
    await serverHasStatus(d.id, h);
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Playing } }, token);
    await pump.run("playing", () => h.status === S.Playing, WITHIN_MS);
    await serverHasStatus(d.id, h);
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Paused } }, token);
    expect(h.status).toBe(S.Paused);
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Playing } }, token); // resume
    expect(h.status).toBe(S.Playing);
    const after: string[] = [];
    h.events.on("status", (s) => after.push(s));
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Stopped } }, token);
    expect(after[0]).toBe(S.Stopped); // shown for END_HOLD_MS / speed, then the next test is awaited
    await pump.run("back to awaitmeasurement", () => h.status === S.AwaitMeasurement, WITHIN_MS);
    await serverHasStatus(d.id, h);
    const refused = await call(server.url, "device.update", { query: { id: d.id }, body: { status: S.Paused } }, token);
    expect([refused.status, refused.responseType]).toEqual([409, "device_not_connected"]);
    expect((await ok(server.url, "perimetry.get", { query: { id: m!.id } }, token)).result).toBeNull();
  }, 150_000);

  it("disconnect: the server marks it DISCONNECTED and notconnected; it reconnects by itself", async () => {
    const d = (await devices())[1]!;
    const h = headsets.find((x) => x.deviceSn === d.deviceSn)!;
    const mark = live.messages.length;
    h.disconnect(1_500);
    // Time stands still: the headset cannot be back before the server has noticed it gone.
    await live.next(
      isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn && (e.data as { connection: string }).connection === "DISCONNECTED"),
      30_000,
      mark,
    );
    await pump.settle("notconnected on the server", async () => (await deviceRow(d.id)).status === S.NotConnected);
    await pump.run("reconnected", () => h.connected, 10_000);
    await live.next(
      isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn && (e.data as { connection: string }).connection === "CONNECTED"),
      30_000,
      mark,
    );
    await serverHasStatus(d.id, h);
  }, 150_000);

  it("stand-alone: repeats the measurement, keeps results through network cuts and the server stores each exactly once", async () => {
    const d = (await devices())[2]!;
    for (const x of d.perimetries) await ok(server.url, "perimetry.trash", { query: { id: x.id } }, token);
    for (const x of d.appointments ?? []) await ok(server.url, "appointment.trash", { query: { id: x.id } }, token);
    const h = headsetFor(d.deviceSn);
    await pump.run("connected", () => h.connected, 10_000);
    const p = await patient("Stand Alone");
    const { patientId: _p, deviceSn: _d, notes: _n, ...config } = body(p.id, d.deviceSn, { audioGuide: false, trackGaze: false });
    const before = (await ok(server.url, "perimetry.all", { query: { patientId: p.id } }, token)).length;
    // "The toggle shows only when the device is connected and in standby or await measurement" (scheduling §4).
    await pump.run("idle", () => h.running === null && (h.status === S.Standby || h.status === S.AwaitMeasurement), WITHIN_MS);
    await serverHasStatus(d.id, h);
    const on = await ok(server.url, "device.standalone", { query: { deviceSn: d.deviceSn }, body: { ...config, patientId: p.id } }, token);
    await pump.settle("the setting on the headset", () => h.standalone?.standaloneId === on!.id);
    await pump.run("the first stand-alone result", () => h.resultsProduced >= 1, WITHIN_MS);
    h.disconnect(20_000);
    await pump.run("two results made offline", () => h.resultsProduced >= 3, WITHIN_MS);
    expect(h.connected).toBe(false);
    expect(h.pendingResults).toBeGreaterThanOrEqual(2);
    await pump.run("reconnected", () => h.connected, WITHIN_MS);
    // Switch it off between two runs: the headset is held there until the server has its status, so the server's
    // "cannot change while a measurement runs" rule lets the switch-off through.
    await pump.run("between two runs", () => h.running === null && h.status === S.AwaitMeasurement, WITHIN_MS);
    await serverHasStatus(d.id, h);
    const off = await call(server.url, "device.standalone", { query: { deviceSn: d.deviceSn }, body: null }, token);
    expect([off.status, off.responseType]).toEqual([200, "device_standalone_unset"]);
    await pump.settle("the switch-off on the headset", () => h.standalone === null);
    const made = h.resultsProduced;
    await pump.run("every result confirmed", () => h.pendingResults === 0, WITHIN_MS);
    // Three gaps between repetitions later: no further run.
    await pump.pass((3 * 30_000) / SPEED);
    expect(h.resultsProduced).toBe(made);
    expect([h.running, h.status]).toEqual([null, S.Standby]);
    const stored = await ok(server.url, "perimetry.all", { query: { patientId: p.id } }, token);
    expect(stored.length - before).toBe(h.resultsProduced);
    expect(new Set(stored.map((m) => m.result?.takenAt)).size).toBe(stored.length);
  }, 150_000);
});
