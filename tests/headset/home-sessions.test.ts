import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import type { HeadsetMessage, HomeSetting } from "../../core/device/protocol.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { DeviceStatus, Eye } from "../../core/model/enums.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import type { SessionEnd } from "../../simulator/headset/home-sessions.ts";
import { type HomeBehaviour, NO_HOME_LAPSES } from "../../simulator/perimetry/home-behaviour.ts";
import { FakeServer, rethrow, testConfig } from "./fake-server.ts";

// A home headset's patient (issue 31 §4): each stand-alone repetition is a session they may skip (no run, no result),
// stop midway (the run stopped, no result), misunderstand (a result with many false positives) or sit with the
// headset slipped (a result with fixation losses and gaze lost). Seeded: the same seed makes the same sessions.

const config = testConfig({ strategy: 3, audioGuide: false, trackGaze: true, stimuliUpdate: 1000, patientId: "home-patient" });

const home = (behaviour: Partial<HomeBehaviour>, seed = 3, ms = 300_000) => {
  const clock = createVirtualClock(0);
  const server = new FakeServer(clock);
  server.standalone = { standaloneId: "sa-home", config };
  const headset = new VirtualHeadset({
    onError: rethrow,
    credential: "isd1.test",
    deviceSn: "VR-HOME",
    clock,
    connector: server.connector,
    speed: 50,
    seed,
    profile: "healthy",
    battery: { vr: 100, clicker: 100, vrCharging: true },
    homeBehaviour: { ...NO_HOME_LAPSES, ...behaviour },
  });
  const sessions: SessionEnd[] = [];
  const progress: Array<Extract<HeadsetMessage, { type: "progress" }>> = [];
  headset.events.on("session", (s) => sessions.push(s));
  headset.events.on("sent", (m) => m.type === "progress" && progress.push(m));
  headset.start();
  clock.advance(ms);
  headset.stop();
  const results = headset.produced.flatMap((m) => (m.type === "standaloneResult" ? [m.result as MeasurementResult] : []));
  return { headset, server, sessions, progress, results };
};

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe("home sessions", () => {
  const plain = home({});

  it("without lapses every session is done and uploaded", () => {
    expect(plain.sessions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(plain.sessions)).toEqual(new Set(["done"]));
    expect(plain.results).toHaveLength(plain.sessions.length);
    expect(plain.server.standaloneStored.size).toBe(plain.results.length);
  });

  it("a skipped session: no test runs and nothing is uploaded", () => {
    const skipped = home({ skipRate: 1 });
    expect(skipped.sessions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(skipped.sessions)).toEqual(new Set(["skipped"]));
    expect(skipped.headset.home!.counts.skipped).toBe(skipped.sessions.length);
    expect(skipped.results).toHaveLength(0);
    expect(skipped.server.statuses()).not.toContain(DeviceStatus.Playing);
  });

  it("stopping midway: the run is stopped between 20 % and 80 % of its locations, with no result", () => {
    const stopped = home({ stopMidwayRate: 1 });
    expect(stopped.sessions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(stopped.sessions)).toEqual(new Set(["stopped"]));
    expect(stopped.results).toHaveLength(0);
    expect(stopped.server.standaloneStored.size).toBe(0);
    expect(stopped.server.statuses()).toContain(DeviceStatus.Stopped);
    const furthest = Math.max(...stopped.progress.map((p) => p.nTested / p.nLocations));
    expect(furthest).toBeGreaterThanOrEqual(0.2);
    expect(furthest).toBeLessThan(0.85);
  });

  it("a misunderstood task: results with many false positives", () => {
    const confused = home({ misunderstandRate: 1 });
    expect(confused.results.length).toBeGreaterThanOrEqual(3);
    expect(mean(plain.results.map((r) => r.falsePositives))).toBeLessThan(0.1);
    expect(mean(confused.results.map((r) => r.falsePositives))).toBeGreaterThan(0.15);
  });

  it("a slipped headset: results with fixation losses and gaze the tracker lost", () => {
    const slipped = home({ slipRate: 1 });
    expect(slipped.results.length).toBeGreaterThanOrEqual(3);
    expect(slipped.headset.home!.counts.slipped).toBeGreaterThanOrEqual(slipped.results.length);
    expect(mean(plain.results.map((r) => r.fixationLosses))).toBeLessThan(0.2);
    expect(mean(slipped.results.map((r) => r.fixationLosses))).toBeGreaterThan(0.2);
    const lost = (r: MeasurementResult) =>
      r.gazeTracking!.meanDistance.filter((d) => d === -1).length / r.gazeTracking!.meanDistance.length;
    expect(mean(slipped.results.map(lost))).toBeGreaterThan(0.2);
  });

  it("seeded: the same seed makes the same sessions and results", () => {
    const mix = { skipRate: 0.3, stopMidwayRate: 0.3, misunderstandRate: 0.3, slipRate: 0.3 };
    const a = home(mix, 11);
    const b = home(mix, 11);
    expect(a.sessions.length).toBeGreaterThanOrEqual(4);
    expect(b.sessions).toEqual(a.sessions);
    expect(b.results).toEqual(a.results);
  });
});

// Bound to a home programme, the home patient sits its sessions in order on the programme's calendar, compressed in
// time: each repetition the next session, its results taken at that session's reminder time; a skipped session is
// passed by (missed), and past the last session nothing more runs. Never past the real now: a session not yet open
// waits, and the one open today is taken now if its reminder time is still to come. A repeat in the schedule runs
// once while its window holds today, for its eyes, taken now.
describe("home sessions on a programme's calendar", () => {
  const programme: HomeSetting = {
    programmeId: "prog-1",
    eyes: [Eye.Right],
    frequency: { kind: "weekly" },
    start: "2026-01-01",
    end: "2026-02-28",
    reminderTime: "18:30",
    timeZone: "Europe/Berlin",
  };
  const lent = (behaviour: Partial<HomeBehaviour>, at = "2026-03-05T10:00:00Z", setting: HomeSetting = programme, c = config) => {
    const clock = createVirtualClock(Date.parse(at));
    const server = new FakeServer(clock);
    server.standalone = { standaloneId: "sa-home", config: c, home: setting };
    const headset = new VirtualHeadset({
      onError: rethrow,
      credential: "isd1.test",
      deviceSn: "VR-LENT",
      clock,
      connector: server.connector,
      speed: 50,
      seed: 5,
      profile: "healthy",
      battery: { vr: 100, clicker: 100, vrCharging: true },
      homeBehaviour: { ...NO_HOME_LAPSES, ...behaviour },
    });
    const sessions: SessionEnd[] = [];
    headset.events.on("session", (s) => sessions.push(s));
    headset.start();
    clock.advance(1_500_000);
    headset.stop();
    return { headset, sessions, takenAt: headset.produced.map((m) => (m.type === "standaloneResult" ? m.result.takenAt : "")) };
  };

  it("takes each session's results at its reminder time, every week from the start to the end, then stops", () => {
    const { takenAt, sessions } = lent({});
    // Nine weekly sessions open from 1 January to 26 February; 18:30 in Berlin is 17:30 UTC in winter.
    const weeks = ["01-01", "01-08", "01-15", "01-22", "01-29", "02-05", "02-12", "02-19", "02-26"];
    expect(takenAt).toEqual(weeks.map((d) => `2026-${d}T17:30:00.000Z`));
    expect(sessions).toEqual(weeks.map(() => "done"));
  });

  it("a skipped session is passed by: the next result is the next week's", () => {
    const { takenAt, sessions } = lent({ skipRate: 0.4 });
    expect(sessions).toHaveLength(9);
    expect(sessions).toContain("skipped");
    const done = sessions.flatMap((s, k) => (s === "done" ? [k] : []));
    expect(takenAt.map((t) => t.slice(0, 10))).toEqual(done.map((k) => new Date(Date.UTC(2026, 0, 1 + 7 * k)).toISOString().slice(0, 10)));
  });

  it("never past the real now: on 22 January (a Thursday, 10:00 UTC) the sessions up to that day's run, that day's taken now", () => {
    const { takenAt, sessions } = lent({}, "2026-01-22T10:00:00Z");
    const started = Date.parse("2026-01-22T10:00:00Z");
    expect(takenAt.slice(0, 3)).toEqual(["01-01", "01-08", "01-15"].map((d) => `2026-${d}T17:30:00.000Z`));
    // The fourth session opened today; its reminder (18:30 in Berlin) is still to come, so it is taken now; nothing after.
    expect(takenAt).toHaveLength(4);
    expect(Date.parse(takenAt[3]!)).toBeGreaterThanOrEqual(started);
    expect(Date.parse(takenAt[3]!)).toBeLessThan(Date.parse("2026-01-22T17:30:00Z"));
    expect(sessions).toEqual(["done", "done", "done", "done"]);
  });

  it("a repeat of one eye runs first, once, for that eye, taken now; the regular calendar goes on after it", () => {
    const both: HomeSetting = {
      ...programme,
      eyes: [Eye.Right, Eye.Left],
      repeats: [{ number: 1, eyes: [Eye.Left], from: "2026-01-08", to: "2026-01-14" }],
    };
    const { headset } = lent({}, "2026-01-09T10:00:00Z", both, { ...config, eye: Eye.Both });
    const runs = headset.produced.flatMap((m) => (m.type === "standaloneResult" ? [[m.result.eye, m.result.takenAt.slice(0, 10)]] : []));
    // The repeat (left eye, taken on 9 January), then sessions 0 and 1 of both eyes (1 and 8 January), nothing after.
    expect(runs[0]).toEqual([Eye.Left, "2026-01-09"]);
    expect(runs.slice(1).map(([, d]) => d)).toEqual(["2026-01-01", "2026-01-01", "2026-01-08", "2026-01-08"]);
  });
});
