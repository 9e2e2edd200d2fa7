import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { type PerimetryTestSpec, createPerimetryTest, runToEnd } from "../../simulator/perimetry/engine.ts";
import {
  HOME_LAPSES,
  MISUNDERSTOOD_FPR,
  NO_HOME_LAPSES,
  type ObserverLapse,
  drawSession,
} from "../../simulator/perimetry/home-behaviour.ts";
import { createRng } from "../../simulator/perimetry/random.ts";

// A home patient's lapses change what a result carries: a misunderstood task many false positives (presses when
// nothing is shown), a slipped headset fixation losses (the blind-spot catch trials seen, Heijl-Krakau) and gaze the
// tracker cannot measure. The same patients sit the same tests with and without the lapse.

const spec: PerimetryTestSpec = {
  pattern: Pattern.P24_2,
  eye: Eye.Right,
  strategy: Strategy.DS,
  stimuliUpdate: 1000,
  stimuliShowtime: 200,
};

/** The pooled catch trials and gaze of ten healthy patients' tests. */
const sit = (lapse?: ObserverLapse) => {
  const pooled = { fp: 0, fpN: 0, fl: 0, flN: 0, gazeLost: 0, gazeN: 0 };
  for (let i = 0; i < 10; i++) {
    const o = runToEnd(createPerimetryTest({ spec, profile: "healthy", seed: `home/${i}`, ...(lapse ? { lapse } : {}) }));
    pooled.fp += o.catchTrials.falsePositive.errors;
    pooled.fpN += o.catchTrials.falsePositive.presentations;
    pooled.fl += o.catchTrials.blindSpot.errors;
    pooled.flN += o.catchTrials.blindSpot.presentations;
    pooled.gazeLost += o.gazeTracking!.meanDistance.filter((d) => d === -1).length;
    pooled.gazeN += o.gazeTracking!.meanDistance.length;
  }
  return { fp: pooled.fp / pooled.fpN, fl: pooled.fl / pooled.flN, gazeLost: pooled.gazeLost / pooled.gazeN };
};

describe("home patients' lapses in the observer", () => {
  const seated = sit();

  it("a misunderstood task: false positives past the common 15 % limit, near the lapse's 35 %", () => {
    const confused = sit({ misunderstands: true, slipped: false });
    expect(seated.fp).toBeLessThan(0.1);
    expect(confused.fp).toBeGreaterThan(0.15);
    expect(Math.abs(confused.fp - MISUNDERSTOOD_FPR)).toBeLessThan(0.12);
    // The gaze is untouched (a trigger-happy patient also "sees" blind-spot stimuli: those presses count as fixation
    // losses, as on a real perimeter).
    expect(confused.gazeLost).toBeLessThan(0.03);
  });

  it("a slipped headset: fixation losses past the common 20 % limit and gaze often unmeasured", () => {
    const slipped = sit({ misunderstands: false, slipped: true });
    expect(seated.fl).toBeLessThan(0.2);
    expect(slipped.fl).toBeGreaterThan(0.2);
    expect(seated.gazeLost).toBeLessThan(0.03);
    expect(slipped.gazeLost).toBeGreaterThan(0.2);
  });

  it("no lapse: the patient answers exactly as without one (the same draws)", () => {
    const a = runToEnd(createPerimetryTest({ spec, profile: "early", seed: "same" }));
    const b = runToEnd(createPerimetryTest({ spec, profile: "early", seed: "same", lapse: { misunderstands: false, slipped: false } }));
    expect(b).toEqual(a);
  });
});

describe("a session's lapses", () => {
  it("none at rates 0; at rate 1 the session is skipped, and a skipped session has no other lapse", () => {
    const rng = createRng("draw");
    for (let i = 0; i < 100; i++)
      expect(drawSession(NO_HOME_LAPSES, rng)).toEqual({ skipped: false, stopsAt: null, misunderstands: false, slipped: false });
    const all = { skipRate: 1, stopMidwayRate: 1, misunderstandRate: 1, slipRate: 1 };
    expect(drawSession(all, rng)).toEqual({ skipped: true, stopsAt: null, misunderstands: false, slipped: false });
    const stopped = drawSession({ ...all, skipRate: 0 }, rng);
    expect(stopped.stopsAt).toBeGreaterThanOrEqual(0.2);
    expect(stopped.stopsAt).toBeLessThanOrEqual(0.8);
  });

  it("seeded: the same seed draws the same sessions; the shares follow the rates", () => {
    const draw = (seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: 200 }, () => drawSession(HOME_LAPSES, rng));
    };
    expect(draw("x")).toEqual(draw("x"));
    expect(draw("y")).not.toEqual(draw("x"));
    const rng = createRng("shares");
    const sessions = Array.from({ length: 4000 }, () => drawSession(HOME_LAPSES, rng));
    const share = (f: (s: (typeof sessions)[number]) => boolean) => sessions.filter(f).length / sessions.length;
    expect(Math.abs(share((s) => s.skipped) - HOME_LAPSES.skipRate)).toBeLessThan(0.02);
    // The others are drawn among the sessions not skipped.
    const kept = 1 - HOME_LAPSES.skipRate;
    expect(Math.abs(share((s) => s.stopsAt !== null) - kept * HOME_LAPSES.stopMidwayRate)).toBeLessThan(0.015);
    expect(Math.abs(share((s) => s.misunderstands) - kept * HOME_LAPSES.misunderstandRate)).toBeLessThan(0.015);
    expect(Math.abs(share((s) => s.slipped) - kept * HOME_LAPSES.slipRate)).toBeLessThan(0.015);
  });
});
