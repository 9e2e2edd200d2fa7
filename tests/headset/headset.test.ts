import { describe, expect, it } from "vitest";
import { DeviceStatus } from "../../core/model/enums.ts";
import { isCommandAllowed } from "../../core/device/status.ts";
import { PROTOCOL_VERSION } from "../../core/device/protocol.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

const setup = (o: { speed?: number; battery?: { vr?: number; clicker?: number; vrCharging?: boolean } } = {}) => {
  const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
  const server = new FakeServer(clock);
  const headset = new VirtualHeadset({
    onError: rethrow,
    credential: "isd1.test",
    deviceSn: "VR-1",
    clock,
    connector: server.connector,
    speed: o.speed ?? 100,
    seed: 1,
    battery: o.battery ?? { vr: 90, clicker: 80 },
  });
  return { clock, server, headset };
};
const S = DeviceStatus;

describe("virtual headset: connection", () => {
  it("says hello with its serial, is welcomed into standby and beats every second with both batteries", () => {
    const { clock, server, headset } = setup();
    headset.start();
    clock.advance(100);
    expect(server.messages[0]).toMatchObject({ type: "hello", deviceSn: "VR-1", protocolVersion: PROTOCOL_VERSION });
    expect(headset.connected).toBe(true);
    expect(headset.status).toBe(S.Standby);
    expect(server.statuses()).toEqual([S.Standby]);
    const before = server.messages.filter((m) => m.type === "heartbeat").length;
    clock.advance(10_000);
    const beats = server.messages.filter((m) => m.type === "heartbeat");
    expect(beats.length - before).toBe(10);
    expect(beats.at(-1)).toMatchObject({ battery: { vr: expect.any(Number), clicker: expect.any(Number), vrCharging: false } });
    headset.stop();
    clock.advance(100);
    expect(clock.pending()).toBe(0);
  });

  it("enrols with a pairing code: the first hello carries the code, every later one the credential the server gave", () => {
    const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
    const server = new FakeServer(clock);
    const headset = new VirtualHeadset({
      onError: rethrow,
      deviceSn: "VR-P",
      pairingCode: "ABCDE-FGHJK",
      clock,
      connector: server.connector,
      speed: 100,
      seed: 1,
    });
    const got: string[] = [];
    headset.events.on("enrolled", (c) => got.push(c));
    headset.start();
    clock.advance(100);
    expect(got).toEqual(["isd1.fake-VR-P"]);
    expect(headset.key).toEqual({ credential: "isd1.fake-VR-P" });
    server.cut(true);
    clock.advance(2_000);
    server.restore();
    clock.advance(1_100);
    const hellos = server.messages.filter((m) => m.type === "hello");
    expect(hellos.map((h) => [h.pairingCode, h.credential])).toEqual([
      ["ABCDE-FGHJK", undefined],
      [undefined, "isd1.fake-VR-P"],
    ]);
    headset.stop();
  });

  it("opens its later connections with the route its welcome named, and keeps it when a welcome names none (issue 32)", () => {
    const { clock, server, headset } = setup();
    server.route = "org-7";
    headset.start();
    clock.advance(100);
    expect(headset.route).toBe("org-7");
    server.route = undefined; // a server from before routes: the headset keeps what it learnt
    server.cut(true);
    clock.advance(1_500);
    server.restore();
    clock.advance(1_100);
    expect(headset.connected).toBe(true);
    // The first connection knew no route; every later one names the organisation.
    expect(server.routes[0]).toBeUndefined();
    expect(server.routes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(server.routes.slice(1))).toEqual(new Set(["org-7"]));
    expect(headset.route).toBe("org-7");
    headset.stop();
  });

  it("reconnects every second while the server is down ('reconnect 1 s'), then resends its status", () => {
    const { clock, server, headset } = setup();
    headset.start();
    clock.advance(100);
    server.cut(true);
    clock.advance(5_500);
    expect(headset.connected).toBe(false);
    server.restore();
    clock.advance(1_100);
    expect(headset.connected).toBe(true);
    expect(server.messages.filter((m) => m.type === "hello")).toHaveLength(2);
    expect(server.statuses().at(-1)).toBe(S.Standby);
    headset.stop();
  });
});

describe("virtual headset: running the queue", () => {
  it("start runs the leftmost measurement through the sequence, streams progress and uploads the result once", () => {
    const { clock, server, headset } = setup();
    server.queue = [
      { kind: "measurement", measurementId: "m1", config: testConfig({ strategy: 2, sorsStage: 10, tutorial: true }) },
      { kind: "measurement", measurementId: "m2", config: testConfig() },
    ];
    headset.start();
    clock.advance(100);
    const id = server.command("start");
    clock.advance(60_000);
    expect(server.acks.get(id)).toEqual({ ok: true });
    expect(server.statuses()).toEqual([
      S.Standby,
      S.AwaitMeasurement,
      S.Tutorial,
      S.AudioPlaying,
      S.Countdown,
      S.Calibrating,
      S.AwaitUserInput,
      S.Playing,
      S.Finished,
      S.AwaitMeasurement,
    ]);
    const calibration = server.messages.find((m) => m.type === "status" && m.status === S.AwaitUserInput);
    expect(calibration).toHaveProperty("gazeCalibration");
    const progress = server.messages.filter((m) => m.type === "progress");
    expect(progress.length).toBeGreaterThan(10);
    expect(progress.every((p) => p.type === "progress" && p.perimetryId === "m1" && p.nLocations === 10)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ nTested: 10 });
    const results = server.messages.filter((m) => m.type === "result");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      measurementId: "m1",
      result: { measurementId: "m1", patientId: "patient-1", pattern: 1, strategy: 2, sorsStage: 10, deviceAlias: "Sim" },
    });
    // A 24-2 result of a patient with a birthdate is scored against the normative database, as the result page scores it.
    expect(results[0]).toMatchObject({
      result: {
        normativeVersion: expect.any(String),
        meanDefect: expect.any(Number),
        normValues: expect.any(Array),
        vfi: expect.any(Number),
      },
    });
    expect(server.measurementResults).toEqual(["m1"]);
    expect(headset.pendingResults).toBe(0);
    headset.stop();
  });

  it("'Stop is disabled in standby': start with nothing queued and stop in standby are refused with an ack", () => {
    const { clock, server, headset } = setup();
    headset.start();
    clock.advance(100);
    const start = server.command("start");
    const stop = server.command("stop");
    clock.advance(100);
    expect(server.acks.get(start)?.ok).toBe(false);
    expect(server.acks.get(stop)).toMatchObject({ ok: false });
    expect(isCommandAllowed("stop", S.Standby)).toBe(false);
    headset.stop();
  });

  it("pause is refused during preparation, obeyed while playing; resume carries on; stop ends without a result", () => {
    const { clock, server, headset } = setup({ speed: 1 });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false, trackGaze: false }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(4_000);
    expect(headset.status).toBe(S.Countdown);
    const early = server.command("pause");
    clock.advance(100);
    expect(server.acks.get(early)?.ok).toBe(false);
    clock.advance(5_000);
    expect(headset.status).toBe(S.Playing);
    const pause = server.command("pause");
    clock.advance(100);
    expect(server.acks.get(pause)?.ok).toBe(true);
    expect(headset.status).toBe(S.Paused);
    const shown = headset.currentTest!.elapsedMs;
    clock.advance(30_000);
    expect(headset.currentTest!.elapsedMs).toBe(shown);
    server.command("resume");
    clock.advance(5_000);
    expect(headset.status).toBe(S.Playing);
    expect(headset.currentTest!.elapsedMs).toBeGreaterThan(shown);
    const stop = server.command("stop");
    clock.advance(100);
    expect(server.acks.get(stop)?.ok).toBe(true);
    expect(headset.status).toBe(S.Stopped);
    clock.advance(5_100);
    expect(headset.status).toBe(S.AwaitMeasurement); // m1 is still queued
    expect(server.messages.filter((m) => m.type === "result")).toHaveLength(0);
    expect(server.queue).toHaveLength(1);
    headset.stop();
  });

  it("an appointment runs its examinations in order: Amsler, perimetry, acuity, colour vision", () => {
    const { clock, server, headset } = setup();
    server.queue = [
      {
        kind: "appointment",
        appointmentId: "a1",
        patientId: "patient-2",
        audioGuide: true,
        tutorial: false,
        trackGaze: true,
        examinations: [
          { examinationId: "e1", type: "amsler", eye: 0, config: null },
          { examinationId: "e2", type: "perimetry", eye: 1, config: testConfig({ patientId: "patient-2", eye: 1, strategy: 4 }) },
          { examinationId: "e3", type: "acuity", eye: 0, config: null },
          { examinationId: "e4", type: "color-blindness", eye: 2, config: null },
        ],
      },
    ];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(120_000);
    expect(server.examinationResults).toEqual([
      { examinationId: "e1", type: "amsler" },
      { examinationId: "e2", type: "perimetry" },
      { examinationId: "e3", type: "acuity" },
      { examinationId: "e4", type: "color-blindness" },
    ]);
    expect(server.queue).toHaveLength(0);
    const progress = server.messages.filter((m) => m.type === "progress");
    expect(progress.every((p) => p.type === "progress" && p.appointmentId === "a1" && p.examinationId !== undefined)).toBe(true);
    expect(headset.status).toBe(S.Standby);
    headset.stop();
  });
});

describe("virtual headset: faults", () => {
  it("clicker disconnected: the running test stops with the clicker-disconnected message", () => {
    const { clock, server, headset } = setup({ speed: 10 });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(20_000);
    expect(headset.status).toBe(S.Playing);
    headset.clickerDisconnect(5_000);
    clock.advance(1_100);
    // It names the stopped test, and comes before the status stopped.
    const at = server.messages.findIndex((m) => m.type === "clickerDisconnected");
    expect(server.messages[at]).toEqual({ type: "clickerDisconnected", perimetryId: "m1", appointmentId: null, examinationId: null });
    expect(server.messages.findIndex((m) => m.type === "status" && m.status === S.Stopped)).toBeGreaterThan(at);
    expect(server.messages.filter((m) => m.type === "heartbeat").at(-1)).toMatchObject({ battery: { clicker: null } });
    clock.advance(6_000);
    expect(server.messages.filter((m) => m.type === "heartbeat").at(-1)).toMatchObject({ battery: { clicker: expect.any(Number) } });
    headset.stop();
  });

  it("clicker disconnected during an appointment: the message names the examination and the appointment", () => {
    const { clock, server, headset } = setup({ speed: 10 });
    server.queue = [
      {
        kind: "appointment",
        appointmentId: "a1",
        patientId: "patient-2",
        audioGuide: false,
        tutorial: false,
        trackGaze: false,
        examinations: [
          { examinationId: "e1", type: "amsler", eye: 0, config: null },
          { examinationId: "e2", type: "acuity", eye: 0, config: null },
        ],
      },
    ];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(2_000);
    expect(headset.status).toBe(S.Playing);
    headset.clickerDisconnect(5_000);
    clock.advance(100);
    expect(server.messages.filter((m) => m.type === "clickerDisconnected")).toEqual([
      { type: "clickerDisconnected", perimetryId: null, examinationId: "e1", appointmentId: "a1" },
    ]);
    expect(server.examinationResults).toEqual([]);
    headset.stop();
  });

  it("a patient who stops responding gets the test paused; resume carries on once they respond again", () => {
    const { clock, server, headset } = setup({ speed: 10 });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(15_000);
    headset.patientStopsResponding(true);
    clock.advance(10_000);
    expect(headset.status).toBe(S.Paused);
    headset.patientStopsResponding(false);
    server.command("resume");
    clock.advance(600_000);
    expect(server.measurementResults).toEqual(["m1"]);
    headset.stop();
  });

  it("battery empty: the headset drops off and comes back on the dock, charging", () => {
    const { clock, server, headset } = setup();
    headset.start();
    clock.advance(100);
    headset.batteryEmpty(30_000);
    clock.advance(100);
    expect(headset.connected).toBe(false);
    expect(server.connections).toBe(0);
    clock.advance(31_000);
    expect(headset.connected).toBe(true);
    expect(server.messages.filter((m) => m.type === "heartbeat").at(-1)).toMatchObject({ battery: { vrCharging: true } });
    headset.stop();
  });

  it("the battery drains while testing and the headset powers off at 0 %, then charges on the dock", () => {
    const { clock, headset, server } = setup({ speed: 100, battery: { vr: 3, clicker: 50 } });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(2_000);
    const levels = () => server.messages.flatMap((m) => (m.type === "heartbeat" ? [m.battery.vr!] : []));
    expect(Math.min(...levels())).toBeLessThan(3);
    clock.advance(20_000);
    expect(headset.battery.vrCharging).toBe(true);
    expect(server.messages.filter((m) => m.type === "hello").length).toBeGreaterThanOrEqual(1);
    expect(server.measurementResults).toEqual([]);
    headset.stop();
  });

  it("a test finished while offline is uploaded on reconnect, once", () => {
    const { clock, server, headset } = setup();
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ strategy: 2, sorsStage: 10 }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(500);
    server.cut(true);
    clock.advance(120_000);
    expect(server.measurementResults).toEqual([]);
    expect(headset.pendingResults).toBe(1);
    server.restore();
    clock.advance(20_000);
    expect(server.measurementResults).toEqual(["m1"]);
    expect(headset.pendingResults).toBe(0);
    headset.stop();
  });
});

describe("virtual headset: errors", () => {
  it("a test the engine cannot run stops (status stopped, no result) and the headset carries on", () => {
    const { clock, server, headset } = setup();
    // SORS is trained for 24-2 and G only ("SORS strategies are not offered for 10-2 or 30-2").
    server.queue = [
      {
        kind: "measurement",
        measurementId: "bad",
        config: testConfig({ pattern: 4, strategy: 2, sorsStage: 36, audioGuide: false, trackGaze: false }),
      },
    ];
    headset.start();
    clock.advance(100);
    const id = server.command("start");
    clock.advance(20_000);
    expect(server.acks.get(id)).toEqual({ ok: true });
    expect(server.statuses()).toContain(S.Stopped);
    expect(server.messages.filter((m) => m.type === "result")).toHaveLength(0);
    expect(headset.status).toBe(S.AwaitMeasurement);
    expect(headset.connected).toBe(true);
    headset.stop();
  });

  it("an exception in a timer is contained by default: logged, the test dropped, the headset still beats", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const lines: string[] = [];
    const headset = new VirtualHeadset({
      credential: "isd1.test",
      deviceSn: "VR-E",
      clock,
      connector: server.connector,
      speed: 100,
      seed: 2,
      log: (l) => lines.push(l),
    });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(2_000);
    expect(headset.status).toBe(S.Playing);
    headset.currentTest!.step = () => {
      throw new Error("engine fault");
    };
    clock.advance(2_000);
    expect(lines.some((l) => l.includes("engine fault"))).toBe(true);
    expect(headset.running).toBeNull();
    const beats = server.messages.filter((m) => m.type === "heartbeat").length;
    clock.advance(3_000);
    expect(server.messages.filter((m) => m.type === "heartbeat").length).toBeGreaterThan(beats);
    headset.stop();
  });
});
