import { describe, expect, it } from "vitest";
import { type DeviceConnection, connectionAt, initialConnection, onHeartbeat, onStatus } from "../../core/device/connection.ts";
import { batteryLed } from "../../core/device/battery.ts";
import { estimatedDurationSeconds } from "../../core/rules/duration.ts";
import { ConnectionStatus, DeviceStatus, Pattern, StimuliUpdate, Strategy, type SorsLocations } from "../../core/model/enums.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

const S = DeviceStatus;

describe("a whole headset run against the seeds' duration estimate", () => {
  // "Estimated duration in seconds = base time for pattern and strategy divided by (2000 divided by stimuli update,
  // adaptive counting as 2000), rounded, plus 85 with audio guide, 50 with gaze tracking, 120 with tutorial."
  // (scheduling seed §9). The headset's audio guide, calibration and tutorial take exactly those extras; countdown and
  // the first click add about 7 s. Start command to finished, speed 1, virtual clock, mean of healthy patients.
  const cases: Array<{
    pattern: Pattern;
    strategy: Strategy;
    sorsStage: SorsLocations | null;
    audioGuide: boolean;
    trackGaze: boolean;
    tutorial: boolean;
  }> = [
    { pattern: Pattern.G, strategy: Strategy.SORS, sorsStage: 36, audioGuide: true, trackGaze: true, tutorial: false },
    { pattern: Pattern.P24_2, strategy: Strategy.DS, sorsStage: null, audioGuide: true, trackGaze: true, tutorial: true },
    { pattern: Pattern.P24_2, strategy: Strategy.Supra, sorsStage: null, audioGuide: false, trackGaze: true, tutorial: false },
  ];
  for (const c of cases) {
    it(`pattern ${c.pattern}, strategy ${c.strategy}${c.sorsStage ? ` ${c.sorsStage}` : ""}: audio ${c.audioGuide}, gaze ${c.trackGaze}, tutorial ${c.tutorial} within 15 %`, () => {
      const runs = 4;
      let total = 0;
      for (let r = 0; r < runs; r++) {
        const clock = createVirtualClock(0);
        const server = new FakeServer(clock);
        server.queue = [{ kind: "measurement", measurementId: `m${r}`, config: testConfig({ ...c, stimuliUpdate: StimuliUpdate.Ms2000 }) }];
        const headset = new VirtualHeadset({
          onError: rethrow,
          credential: "isd1.test",
          deviceSn: "VR-T",
          clock,
          connector: server.connector,
          speed: 1,
          seed: `duration/${r}`,
          profile: "healthy",
          battery: { vr: 100, vrCharging: true },
        });
        headset.start();
        clock.advance(100);
        let startedAt = 0;
        let finishedAt: number | null = null;
        headset.events.on("status", (s) => {
          if (s === S.Finished && finishedAt === null) finishedAt = clock.now();
        });
        server.command("start");
        startedAt = clock.now();
        for (let t = 0; t < 3_600 && finishedAt === null; t++) clock.advance(1_000);
        headset.stop();
        if (finishedAt === null) throw new Error("run did not finish within an hour");
        total += (finishedAt - startedAt) / 1000;
      }
      const expected = estimatedDurationSeconds({ ...c, sorsStage: c.sorsStage ?? 36, stimuliUpdate: StimuliUpdate.Ms2000 })!;
      expect(Math.abs(total / runs / expected - 1)).toBeLessThanOrEqual(0.15);
    });
  }
});

describe("connection as the server's rules see it", () => {
  const track = (server: FakeServer) => {
    const state = { c: initialConnection as DeviceConnection };
    server.onReceive = (m, at) => {
      if (m.type === "status") state.c = onStatus(state.c, m.status);
      if (m.type === "heartbeat") state.c = onHeartbeat(state.c, at);
    };
    return state;
  };

  it("'No heartbeat for 4 s marks it disconnected': a working headset never trips it, even while testing and streaming", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const state = track(server);
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig() }];
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-C",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 3,
    });
    headset.start();
    clock.advance(1_500);
    server.command("start");
    for (let t = 0; t < 20 * 60 * 10; t++) {
      clock.advance(100);
      expect(connectionAt(state.c, clock.now())).toBe(ConnectionStatus.Connected);
    }
    expect(server.measurementResults).toEqual(["m1"]);
    headset.stop();
  });

  it("a silent network loss (no close on either side) marks it disconnected within 4 s; it is connected again once frames flow", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const state = track(server);
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-D",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 4,
    });
    headset.start();
    clock.advance(2_000);
    expect(connectionAt(state.c, clock.now())).toBe(ConnectionStatus.Connected);
    server.blackhole = true;
    const lostAt = clock.now();
    while (connectionAt(state.c, clock.now()) === ConnectionStatus.Connected) clock.advance(50);
    expect(clock.now() - lostAt).toBeLessThanOrEqual(4_000);
    server.blackhole = false;
    clock.advance(1_100);
    expect(connectionAt(state.c, clock.now())).toBe(ConnectionStatus.Connected);
    headset.stop();
  });
});

describe("battery", () => {
  it("drains while testing; on the dock it charges ('yellow while charging below 98%'), leaves it full ('green when full')", () => {
    const clock = createVirtualClock(0);
    const server = new FakeServer(clock);
    const busy = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-B",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 8,
      battery: { vr: 80 },
    });
    const docked = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-K",
      clock,
      connector: server.connector,
      speed: 1,
      seed: 9,
      battery: { vr: 60, vrCharging: true },
    });
    const beats: Array<{ vr: number; charging: boolean }> = [];
    docked.events.on("sent", (m) => m.type === "heartbeat" && beats.push({ vr: m.battery.vr!, charging: m.battery.vrCharging }));
    server.queue = [{ kind: "measurement", measurementId: "m1", config: testConfig({ audioGuide: false, trackGaze: false }) }];
    busy.start();
    clock.advance(100);
    server.command("start");
    docked.start();
    clock.advance(10 * 60_000);
    // 0.55 %/min while testing (battery.ts); the test takes most of the 10 minutes.
    expect(busy.battery.vr).toBeLessThan(80 - 0.5 * 10 * 0.55);
    expect(batteryLed(beats[5]!.vr, beats[5]!.charging)).toEqual({ colour: "yellow", flashing: false });
    clock.advance(40 * 60_000);
    const full = beats.find((b) => b.vr === 100 && !b.charging);
    expect(full).toBeDefined();
    expect(batteryLed(full!.vr, full!.charging)).toEqual({ colour: "green", flashing: false });
    expect(docked.battery.vrCharging).toBe(false);
    for (const h of [busy, docked]) h.stop();
  });
});
