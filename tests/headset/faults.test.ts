import { describe, expect, it } from "vitest";
import type { FaultKind } from "../../simulator/headset/fault-schedule.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { NO_FAULTS } from "../../simulator/headset/faults.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

// Random faults (issue #5 part 4: disconnect and reconnect, dropped messages, clicker disconnected, battery empty, the
// patient stops responding) at rates far above a clinic's, on an unattended (autopilot) headset working through a queue
// and then in stand-alone mode. Whatever happens, every result it made reaches the server once the faults stop.

describe("random faults", () => {
  it("a headset under heavy random faults keeps working and delivers every result once the faults stop", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const config = testConfig({ strategy: 2, sorsStage: 10, audioGuide: false, trackGaze: false, stimuliUpdate: 1000 });
    server.queue = Array.from({ length: 6 }, (_, i) => ({ kind: "measurement" as const, measurementId: `q${i}`, config }));
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-F",
      clock,
      connector: server.connector,
      speed: 20,
      seed: 11,
      autopilot: true,
      battery: { vr: 100, vrCharging: true },
      faults: {
        disconnectsPerHour: 120,
        disconnectMs: [500, 6_000],
        dropRate: 0.05,
        clickerPerHour: 30,
        batteryEmptyPerHour: 6,
        unresponsivePerHour: 60,
      },
    });
    const faults = new Map<FaultKind, number>();
    headset.events.on("fault", (k) => faults.set(k, (faults.get(k) ?? 0) + 1));
    headset.start();
    clock.advance(30 * 60_000);
    // Then stand-alone for a while, faults still on.
    server.setStandalone({ standaloneId: "sa-f", config });
    clock.advance(20 * 60_000);
    server.setStandalone(null);
    headset.faults = NO_FAULTS;
    // A dropped stand-alone setting frame is corrected by the next hello: reconnect once to be sure it is off.
    headset.disconnect(100);
    clock.advance(5 * 60_000);

    expect(faults.get("disconnect") ?? 0).toBeGreaterThan(10);
    expect(faults.get("clicker") ?? 0).toBeGreaterThan(0);
    expect(faults.get("battery") ?? 0).toBeGreaterThan(0);
    expect(faults.get("unresponsive") ?? 0).toBeGreaterThan(0);
    expect(headset.connected).toBe(true);
    expect(headset.pendingResults).toBe(0);
    const made = headset.produced.map((m) =>
      m.type === "result" ? `m:${m.measurementId}` : m.type === "standaloneResult" ? `s:${m.resultId}` : "?",
    );
    const queueResults = made.filter((x) => x.startsWith("m:"));
    expect(server.measurementResults.map((id) => `m:${id}`).sort()).toEqual([...new Set(queueResults)].sort());
    expect(made.filter((x) => x.startsWith("s:")).sort()).toEqual([...server.standaloneStored].map((id) => `s:${id}`).sort());
    // Autopilot worked through the queue despite the faults.
    expect(server.measurementResults.length).toBeGreaterThanOrEqual(3);
    expect(server.standaloneStored.size).toBeGreaterThan(0);
    headset.stop();
  });
});
