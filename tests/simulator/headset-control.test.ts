import { describe, expect, it } from "vitest";
import { headsetControl } from "../../simulator/control/headset-control.ts";
import { NO_FAULTS } from "../../simulator/headset/index.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, testConfig } from "../headset/fake-server.ts";

// The simulator's headset control (what /api/dev/simulator/* and `isopter simulate speed|profile` call) on a virtual
// clock against the in-memory device server: a new speed applies at once, also mid-test, without a restart; a new
// patient profile of a busy headset still waits for the end of its test, and then restarts it with the current speed.

const setup = () => {
  const clock = createVirtualClock(Date.parse("2026-11-22T09:00:00Z"));
  const server = new FakeServer(clock);
  const control = headsetControl({ speed: 1, clock, connector: server.connector, faults: NO_FAULTS, log: () => undefined });
  const uploads: number[] = [];
  const hellos: number[] = [];
  server.onReceive = (m, at) => {
    if (m.type === "result") uploads.push(at);
    if (m.type === "hello") hellos.push(at);
  };
  server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ eye: 1, audioGuide: false, trackGaze: false }) }];
  control.add([{ deviceSn: "VR-0001", pairingCode: "ABCDE-FGHJK" }], {});
  clock.advance(100);
  server.command("start");
  const progress = () => server.messages.filter((m) => m.type === "progress").length;
  for (let i = 0; progress() < 5; i++) {
    if (i > 100_000) throw new Error("the test did not get under way");
    clock.advance(10);
  }
  const one = () => control.list()[0]!;
  expect(one()).toMatchObject({ testing: true, speed: 1 });
  /** Runs the clock until the result is in; answers the clock time from `from` to it. */
  const untilResult = (from: number) => {
    for (let i = 0; uploads.length === 0; i++) {
      if (i > 1_000_000) throw new Error("no result");
      clock.advance(10);
    }
    return uploads[0]! - from;
  };
  return { clock, server, control, uploads, hellos, progress, one, untilResult };
};

describe("headset control: speed and profile of a running headset", () => {
  it("a speed change applies at once to a headset mid-test: the rest runs about 10x sooner, no restart, one result", async () => {
    const slow = setup();
    const slowRest = slow.untilResult(slow.clock.now());

    const fast = setup();
    const at = fast.clock.now();
    const [answered] = fast.control.configure({ deviceSn: "VR-0001" }, { speed: 10 });
    expect(answered).toMatchObject({ deviceSn: "VR-0001", speed: 10, testing: true, pendingSettings: null });
    const fastRest = fast.untilResult(at);
    expect(fastRest).toBeGreaterThanOrEqual(slowRest / 10 - 1);
    expect(fastRest).toBeLessThanOrEqual(slowRest / 10 + 2_500); // one stimulus cycle may end at the old pace

    for (const r of [slow, fast]) {
      r.clock.advance(60_000);
      expect(r.uploads).toHaveLength(1);
      expect(r.hellos).toHaveLength(1); // never restarted
    }
    expect(fast.progress()).toBe(slow.progress()); // the same presentations, to the end
    expect(fast.one()).toMatchObject({ speed: 10, testing: false, resultsProduced: 1, pendingResults: 0, pendingSettings: null });
    await slow.control.stop();
    await fast.control.stop();
  });

  it("a profile change of a busy headset waits for the end of its test, then restarts it with the speed set meanwhile", async () => {
    const s = setup();
    expect(s.control.configure({ deviceSn: "VR-0001" }, { profile: "advanced" })).toMatchObject([
      { speed: 1, profile: null, testing: true, pendingSettings: { speed: 1, profile: "advanced" } },
    ]);
    // A speed change meanwhile applies at once, and the waiting profile change carries it.
    expect(s.control.configure({ all: true }, { speed: 10 })).toMatchObject([
      { speed: 10, profile: null, testing: true, pendingSettings: { speed: 10, profile: "advanced" } },
    ]);
    const resultAt = s.clock.now() + s.untilResult(s.clock.now());
    expect(s.hellos).toHaveLength(1); // not restarted while the test ran
    s.clock.advance(5_000);
    expect(s.hellos).toHaveLength(2);
    expect(s.hellos[1]!).toBeGreaterThan(resultAt); // restarted after its result was in
    // The same headset switched on again: it presents the credential it got for its pairing code.
    expect(s.server.messages.filter((m) => m.type === "hello").map((h) => h.credential ?? h.pairingCode)).toEqual([
      "ABCDE-FGHJK",
      "isd1.fake-VR-0001",
    ]);
    expect(s.uploads).toHaveLength(1);
    expect(s.one()).toMatchObject({ speed: 10, profile: "advanced", pendingSettings: null, connected: true });
    await s.control.stop();
  });

  it("setting the profile it already runs with cancels a waiting change", async () => {
    const s = setup();
    s.control.configure({ deviceSn: "VR-0001" }, { profile: "early" });
    expect(s.control.configure({ deviceSn: "VR-0001" }, { profile: null })).toMatchObject([{ profile: null, pendingSettings: null }]);
    s.untilResult(s.clock.now());
    s.clock.advance(5_000);
    expect(s.hellos).toHaveLength(1);
    await s.control.stop();
  });
});
