import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DeviceStatus } from "../../core/model/enums.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

// "The device repeats one chosen measurement until switched off and uploads results when back on the network."
// (scheduling seed §4 Stand-alone mode). Exactly once: the headset keeps each result until the server's resultAccepted
// and sends it again after every reconnect; the server stores a resultId once.

const SPEED = 50;
const config = testConfig({ strategy: 2, sorsStage: 10, audioGuide: false, trackGaze: false, stimuliUpdate: 1000 });

type Outage = { at: number; length: number; side: "server" | "headset" };

const runSchedule = (outages: Array<Outage>, lostAcks: number, dropRate: number) => {
  const clock = createVirtualClock(0);
  const server = new FakeServer(clock);
  server.dropToHeadset = lostAcks;
  const headset = new VirtualHeadset({
    onError: rethrow,
    credential: "isd1.test",
    deviceSn: "VR-SA",
    clock,
    connector: server.connector,
    speed: SPEED,
    seed: 5,
    battery: { vr: 100, clicker: 100, vrCharging: true },
    faults: { dropRate },
  });
  server.standalone = { standaloneId: "sa-1", config };
  headset.start();
  let t = 0;
  for (const o of [...outages].sort((a, b) => a.at - b.at)) {
    if (o.at > t) clock.advance(o.at - t);
    // The network goes from the server's side (every connection cut, none accepted) or the headset's (Wi-Fi lost).
    if (o.side === "server") {
      server.cut(true);
      clock.advance(o.length);
      server.restore();
    } else {
      headset.disconnect(o.length);
      clock.advance(o.length);
    }
    t = o.at + o.length;
  }
  // Switch stand-alone off (null, as the dashboard does), heal the network, let everything settle.
  server.dropToHeadset = 0;
  headset.faults = { ...headset.faults, dropRate: 0 };
  clock.advance(Math.max(0, 40_000 - t));
  server.setStandalone(null);
  clock.advance(30_000);
  headset.stop();
  return { server, headset };
};

describe("stand-alone mode: every result uploaded exactly once", () => {
  it("repeats the measurement and uploads each result once on a healthy network", () => {
    const { server, headset } = runSchedule([], 0, 0);
    expect(headset.resultsProduced).toBeGreaterThanOrEqual(3);
    expect(server.standaloneStored.size).toBe(headset.resultsProduced);
    expect(headset.pendingResults).toBe(0);
  });

  it("property: whatever the disconnect schedule, lost acknowledgements and dropped frames", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 35_000 }),
            length: fc.integer({ min: 50, max: 8_000 }),
            side: fc.constantFrom("server" as const, "headset" as const),
          }),
          { maxLength: 6 },
        ),
        fc.constantFrom(0, 0.2, 0.5),
        fc.constantFrom(0, 0.1),
        (outages, lostAcks, dropRate) => {
          const { server, headset } = runSchedule(outages, lostAcks, dropRate);
          expect(headset.resultsProduced).toBeGreaterThan(0);
          expect(headset.pendingResults).toBe(0);
          // Every result arrived (the server keeps one per resultId, so a count equal to the results made means each
          // result has its own id and none was lost); resends after lost acknowledgements are absorbed by the id.
          expect(server.standaloneStored.size).toBe(headset.resultsProduced);
          // ... and they are the very results made: each made result stored, nothing else.
          const made = headset.produced.map((m) => (m.type === "standaloneResult" ? m.resultId : ""));
          expect(new Set(made).size).toBe(made.length);
          expect([...server.standaloneStored].sort()).toEqual([...made].sort());
          expect(server.standaloneReceived).toBeGreaterThanOrEqual(server.standaloneStored.size);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("runs while offline: results made with no network at all arrive after reconnecting", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-SB",
      clock,
      connector: server.connector,
      speed: SPEED,
      seed: 6,
      battery: { vr: 100, vrCharging: true },
    });
    server.standalone = { standaloneId: "sa-2", config };
    headset.start();
    clock.advance(1_000);
    server.cut(true);
    clock.advance(30_000);
    const madeOffline = headset.resultsProduced;
    expect(madeOffline).toBeGreaterThan(1);
    expect(server.standaloneStored.size).toBeLessThan(madeOffline);
    server.restore();
    clock.advance(3_000);
    expect(server.standaloneStored.size).toBeGreaterThanOrEqual(madeOffline);
    headset.stop();
  });

  // "The device repeats one chosen measurement until switched off and uploads results when back on the network."
  // (scheduling §4 Stand-alone mode). Switched off while the headset was away, it hears so only once back: the server
  // sends the setting right after the welcome, but only after reading it from its database. A repetition must not
  // start in between on the setting the headset had before.
  it("switched off while offline: after reconnecting it starts no further repetition, not even before the setting arrives", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    server.settingsDelayMs = 10_000; // far longer than a gap between repetitions (30 s / SPEED)
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-SC",
      clock,
      connector: server.connector,
      speed: SPEED,
      seed: 7,
      battery: { vr: 100, vrCharging: true },
    });
    server.standalone = { standaloneId: "sa-3", config };
    headset.start();
    clock.advance(12_000);
    expect(headset.resultsProduced).toBeGreaterThan(0);
    server.cut(true);
    clock.advance(6_000);
    const madeOffline = headset.resultsProduced;
    server.standalone = null; // the technician switches it off while the headset is away
    let runAtWelcome: unknown;
    let startedAfterWelcome = 0;
    headset.events.on("received", (m) => {
      if (m.type === "welcome") runAtWelcome = headset.running;
    });
    headset.events.on("status", (st) => {
      if (st === DeviceStatus.Countdown && runAtWelcome !== undefined && headset.running !== runAtWelcome) startedAfterWelcome++;
    });
    server.restore();
    clock.advance(30_000);
    expect(runAtWelcome).not.toBeUndefined(); // it did reconnect
    expect(startedAfterWelcome).toBe(0);
    expect(headset.standalone).toBeNull();
    expect(headset.status).toBe(DeviceStatus.Standby);
    // A run under way when it reconnected may finish; nothing after it.
    expect(headset.resultsProduced - madeOffline).toBeLessThanOrEqual(1);
    expect(server.standaloneStored.size).toBe(headset.resultsProduced);
    headset.stop();
  });
});
