import { describe, expect, it } from "vitest";
import type { QueueItem } from "../../core/device/protocol.ts";
import { DeviceStatus } from "../../core/model/enums.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

// VirtualHeadset.setSpeed in the middle of a test (issue #10: `isopter simulate speed` applies at once). Two headsets of
// the same seed run the same test on virtual clocks; one is sped up from 1 to 10 midway. It must finish the rest in about
// a tenth of the clock time, with the same presentations and one result: the test goes on, it is not restarted. The step
// under way when the speed changes keeps the device time it had left (a perimetry stimulus cycle ends at its pace).

const measurement: QueueItem[] = [
  { kind: "measurement", measurementId: "m1", config: testConfig({ eye: 1, audioGuide: false, trackGaze: false }) },
];
const acuity: QueueItem[] = [
  {
    kind: "appointment",
    appointmentId: "a1",
    patientId: "patient-2",
    audioGuide: false,
    tutorial: false,
    trackGaze: false,
    examinations: [{ examinationId: "e1", type: "acuity", eye: 0, config: null }],
  },
];

/** Runs the queue's first item at speed 1; once `progressed` progress messages have come, sets the speed to `to`. */
const scenario = (queue: QueueItem[], progressed: number, to: number | null) => {
  const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
  const server = new FakeServer(clock);
  const headset = new VirtualHeadset({
    onError: rethrow,
    credential: "isd1.test",
    deviceSn: "VR-1",
    clock,
    connector: server.connector,
    speed: 1,
    seed: 1,
    battery: { vr: 90, clicker: 80 },
  });
  const uploads: number[] = [];
  server.onReceive = (m, at) => {
    if (m.type === "result" || m.type === "examinationResult") uploads.push(at);
  };
  server.queue = queue;
  headset.start();
  clock.advance(100);
  server.command("start");
  const progress = () => server.messages.filter((m) => m.type === "progress");
  for (let i = 0; progress().length < progressed; i++) {
    if (i > 100_000) throw new Error("the test did not get under way");
    clock.advance(10);
  }
  expect(headset.status).toBe(DeviceStatus.Playing);
  const run = headset.running;
  const test = headset.currentTest;
  const changedAt = clock.now();
  if (to !== null) headset.setSpeed(to);
  for (let i = 0; uploads.length === 0; i++) {
    if (i > 1_000_000) throw new Error("no result");
    expect([run, null]).toContain(headset.running); // the same run to its end (the result is a moment on the wire): no restart
    clock.advance(10);
  }
  clock.advance(60_000); // anything after the result (a second one, a restart) would show now
  const last = progress().at(-1)!;
  headset.stop();
  return {
    rest: uploads[0]! - changedAt,
    uploads: uploads.length,
    hellos: server.messages.filter((m) => m.type === "hello").length,
    playing: server.statuses().filter((s) => s === DeviceStatus.Playing).length,
    progress: progress().length,
    presentations: test?.outcome().presentations ?? null,
    last,
    produced: headset.resultsProduced,
    speed: headset.speed,
  };
};

describe("virtual headset: speed changed in the middle of a test", () => {
  for (const [name, queue, progressed, oneStepMs] of [
    ["a perimetry test", measurement, 5, 2_500],
    ["a timed examination (acuity)", acuity, 3, 3_000],
  ] as const) {
    it(`${name} sped up from 1 to 10 finishes the rest about 10x sooner, same presentations, one result`, () => {
      const slow = scenario(queue, progressed, null);
      const fast = scenario(queue, progressed, 10);
      expect(fast.speed).toBe(10);
      // Ten times sooner, give or take the one step already scheduled at the old pace when the speed changed.
      expect(slow.rest).toBeGreaterThan(60_000);
      expect(fast.rest).toBeGreaterThanOrEqual(slow.rest / 10 - 1);
      expect(fast.rest).toBeLessThanOrEqual(slow.rest / 10 + oneStepMs);
      // The same test to its end: same steps, same last progress, one result; never restarted nor replayed.
      expect(fast.progress).toBe(slow.progress);
      expect(fast.presentations).toBe(slow.presentations);
      expect(fast.last).toEqual(slow.last);
      for (const r of [slow, fast]) expect(r).toMatchObject({ uploads: 1, produced: 1, hellos: 1, playing: 1 });
    });
  }

  it("a slow-down applies from the next step too", () => {
    const base = scenario(measurement, 5, null);
    const slower = scenario(measurement, 5, 0.5);
    expect(slower.rest).toBeGreaterThan(base.rest * 2 - 2_500);
    expect(slower.rest).toBeLessThanOrEqual(base.rest * 2);
    expect(slower).toMatchObject({ uploads: 1, hellos: 1, presentations: base.presentations });
  });

  it("the step under way keeps the device time it had left: half a 120 s tutorial at speed 1, then 6 s at speed 10", () => {
    const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
    const server = new FakeServer(clock);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-1",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 1,
    });
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ tutorial: true }) }];
    headset.start();
    clock.advance(100);
    server.command("start");
    clock.advance(100);
    expect(headset.status).toBe(DeviceStatus.Tutorial);
    const run = headset.running;
    clock.advance(60_000);
    headset.setSpeed(10);
    clock.advance(5_950);
    expect(headset.status).toBe(DeviceStatus.Tutorial);
    clock.advance(100);
    expect(headset.status).toBe(DeviceStatus.AudioPlaying); // the same run goes on (85 s of audio guide: 8.5 s now)
    expect(headset.running).toBe(run);
    clock.advance(8_450);
    expect(headset.status).toBe(DeviceStatus.Countdown);
    headset.stop();
  });

  it("an Amsler examination's one 40 s step, half over at speed 1, ends 2 s after a change to 10", () => {
    const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
    const server = new FakeServer(clock);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-1",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 1,
    });
    let resultAt: number | null = null;
    server.onReceive = (m, at) => {
      if (m.type === "examinationResult") resultAt ??= at;
    };
    server.queue = [
      {
        kind: "appointment",
        appointmentId: "a1",
        patientId: "patient-2",
        audioGuide: false,
        tutorial: false,
        trackGaze: false,
        examinations: [{ examinationId: "e1", type: "amsler", eye: 0, config: null }],
      },
    ];
    headset.start();
    clock.advance(100);
    server.command("start");
    for (let i = 0; headset.status !== DeviceStatus.Playing; i++) {
      if (i > 10_000) throw new Error("not playing");
      clock.advance(10);
    }
    clock.advance(20_000);
    const changedAt = clock.now();
    headset.setSpeed(10);
    clock.advance(10_000);
    expect(resultAt).not.toBeNull();
    expect(resultAt! - changedAt).toBeGreaterThanOrEqual(2_000);
    expect(resultAt! - changedAt).toBeLessThanOrEqual(2_000 + 10); // plus the fake server's latency
    expect(server.examinationResults).toEqual([{ examinationId: "e1", type: "amsler" }]);
    headset.stop();
  });

  it("setSpeed refuses a speed that is not above 0, naming it, and keeps the old one", () => {
    const clock = createVirtualClock(0);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-1",
      clock,
      connector: new FakeServer(clock).connector,
      speed: 3,
    });
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => headset.setSpeed(bad)).toThrow(
        `VirtualHeadset.setSpeed: speed must be a finite number above 0 (device time per clock time), got ${bad}`,
      );
    expect(headset.speed).toBe(3);
  });

  it("the battery drains at the new speed from the next tick", () => {
    const clock = createVirtualClock(0);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-1",
      clock,
      connector: new FakeServer(clock).connector,
      speed: 1,
      battery: { vr: 90, clicker: 80 },
    });
    headset.start();
    clock.advance(60_000);
    const atOne = 90 - headset.battery.vr;
    headset.setSpeed(10);
    clock.advance(60_000);
    const atTen = 90 - atOne - headset.battery.vr;
    expect(atOne).toBeCloseTo(0.2, 6); // idle drain: 0.2 % per minute of device time
    expect(atTen).toBeCloseTo(2, 6);
    headset.stop();
  });
});
