import { describe, expect, it } from "vitest";
import { Result } from "effect";
import { getPattern } from "../../core/analytics/patterns.ts";
import { decodeHeadsetMessage } from "../../core/device/protocol.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, Strategy } from "../../core/model/enums.ts";
import { type StepOutcome, createPerimetryTest, runToEnd } from "../../simulator/perimetry/engine.ts";
import { specFor } from "../../simulator/perimetry/evaluate.ts";
import { toMeasurementResult } from "../../simulator/perimetry/result.ts";
import { runOnClock } from "../../simulator/perimetry/run.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";

const spec = specFor(Pattern.P24_2, Strategy.Normal);

describe("perimetry engine: step API", () => {
  it("the same seed gives the same test, presentation by presentation", () => {
    const a: StepOutcome[] = [],
      b: StepOutcome[] = [];
    runToEnd(createPerimetryTest({ spec, profile: "moderate", seed: 42 }), (s) => a.push(s));
    runToEnd(createPerimetryTest({ spec, profile: "moderate", seed: 42 }), (s) => b.push(s));
    expect(a).toEqual(b);
    const c = runToEnd(createPerimetryTest({ spec, profile: "moderate", seed: 43 }));
    expect(c.thresholds).not.toEqual(runToEnd(createPerimetryTest({ spec, profile: "moderate", seed: 42 })).thresholds);
  });

  it("streams progress: nTested grows to nLocations, lastUpdatedIndex is the location just shown, dBValue once finished", () => {
    const test = createPerimetryTest({ spec, profile: "healthy", seed: 1 });
    let last = 0;
    const finished = new Set<number>();
    while (!test.done) {
      const s = test.step();
      if (s.presentation.catchTrial) {
        expect(s.progress).toBeNull();
        continue;
      }
      const p = s.progress!;
      expect(p.nLocations).toBe(54);
      expect(p.lastUpdatedIndex).toBe(s.presentation.index);
      expect(p.nTested).toBeGreaterThanOrEqual(last);
      last = p.nTested;
      if (s.finishedIndex !== null) finished.add(s.finishedIndex);
      expect(p.nTested).toBe(finished.size);
      for (const t of p.thresholds) expect(t.dBValue === null).toBe(!finished.has(t.index));
      // Each progress frame is a valid protocol message.
      const frame = { type: "progress", perimetryId: "m1", appointmentId: null, gazeTracking: true, ...p };
      expect(Result.isSuccess(decodeHeadsetMessage(frame))).toBe(true);
    }
    expect(last).toBe(54);
  });

  it("produces the result fields: thresholds per location, presentations, duration, catch trials, gaze", () => {
    const test = createPerimetryTest({ spec, profile: "unreliable", seed: 9 });
    const out = runToEnd(test);
    expect(out.thresholds).toHaveLength(54);
    expect(out.tested.every(Boolean)).toBe(true);
    expect(out.presentations).toBe(
      out.locationPresentations +
        out.catchTrials.falsePositive.presentations +
        out.catchTrials.falseNegative.presentations +
        out.catchTrials.blindSpot.presentations,
    );
    expect(out.catchTrials.blindSpot.presentations).toBeGreaterThan(0);
    expect(out.falsePositives).toBeGreaterThan(0.05); // the unreliable responder
    expect(out.gazeTracking!.meanDistance).toHaveLength(out.presentations);
    expect(out.durationMs).toBe(out.presentations * 2000);
    const result = toMeasurementResult(out, spec, {
      measurementId: "m",
      patientId: "p",
      takenAt: "2026-11-22T00:00:00Z",
      deviceAlias: null,
      gazeCalibration: true,
    });
    const upload = decodeHeadsetMessage({ type: "result", measurementId: "m", result });
    expect(Result.isSuccess(upload)).toBe(true);
    expect(result.examinationTimeInSeconds).toBe(out.durationMs / 1000);
    expect(result.meanDefect!).toBeGreaterThan(-3);
  });

  it("gaze is not recorded when tracking is off; Esterman scores seen points and has no blind-spot catch trials", () => {
    const noGaze = runToEnd(createPerimetryTest({ spec: { ...spec, trackGaze: false }, profile: "healthy", seed: 2 }));
    expect(noGaze.gazeTracking).toBeNull();
    const est = runToEnd(
      createPerimetryTest({ spec: { ...specFor(Pattern.Esterman, Strategy.OneLevel), eye: Eye.Binocular }, profile: "healthy", seed: 2 }),
    );
    expect(est.catchTrials.blindSpot.presentations).toBe(0);
    expect(est.estermanScore).toBe(Math.round((100 * est.seen!.filter(Boolean).length) / 120));
    expect(est.estermanScore!).toBeGreaterThanOrEqual(95);
  });

  it("SORS tests only its k locations and reconstructs the rest", () => {
    const test = createPerimetryTest({ spec: specFor(Pattern.G, Strategy.SORS, 20), profile: "early", seed: 3 });
    const out = runToEnd(test);
    expect(out.tested.filter(Boolean)).toHaveLength(20);
    expect(out.thresholds).toHaveLength(getPattern(Pattern.G).points.length);
    expect(out.thresholds.every((t) => t >= 0 && t <= 40)).toBe(true);
    expect(test.nLocations).toBe(20);
    const screening = createPerimetryTest({ spec: specFor(Pattern.P24_2, Strategy.SORS_screening), profile: "healthy", seed: 3 });
    expect(screening.nLocations).toBe(16);
  });

  it("adaptive update follows the response times: a slow responder gets longer cycles", () => {
    const adaptive = { ...spec, stimuliUpdate: StimuliUpdate.Adaptive };
    const fast = runToEnd(createPerimetryTest({ spec: adaptive, profile: "healthy", seed: 4 }));
    const slow = runToEnd(createPerimetryTest({ spec: adaptive, profile: "unreliable", seed: 4 }));
    expect(fast.meanUpdateTimeMs).toBeGreaterThanOrEqual(1000);
    expect(slow.meanUpdateTimeMs).toBeGreaterThan(fast.meanUpdateTimeMs);
    expect(slow.meanUpdateTimeMs).toBeLessThanOrEqual(2500);
  });

  it("a 500 ms stimulus lengthens each cycle by 300 ms", () => {
    const out = runToEnd(createPerimetryTest({ spec: { ...spec, stimuliShowtime: Showtime.Ms500 }, profile: "healthy", seed: 5 }));
    expect(out.durationMs).toBe(out.presentations * 2300);
  });
});

describe("driving a test on a clock", () => {
  it("on a virtual clock the whole test runs at once and the clock reads its duration; speed divides it", () => {
    for (const speed of [1, 10]) {
      const clock = createVirtualClock();
      const test = createPerimetryTest({ spec, profile: "healthy", seed: 11 });
      let done = false;
      runOnClock(test, clock, { speed, onDone: () => (done = true) });
      clock.runAll();
      expect(done).toBe(true);
      expect(clock.now()).toBeCloseTo(test.elapsedMs / speed, 6);
    }
  });

  it("pause holds the test; resume carries on; stop ends it without a result", () => {
    const clock = createVirtualClock();
    const test = createPerimetryTest({ spec, profile: "healthy", seed: 12 });
    let steps = 0;
    let done = false;
    const run = runOnClock(test, clock, { onStep: () => steps++, onDone: () => (done = true) });
    clock.advance(20_000);
    expect(steps).toBe(10);
    run.pause();
    clock.advance(60_000);
    expect(steps).toBe(10);
    run.resume();
    clock.advance(4_000);
    expect(steps).toBe(12);
    run.stop();
    clock.runAll();
    expect(done).toBe(false);
    expect(test.done).toBe(false);
  });
});

describe("one patient, many tests", () => {
  it("a patient seed fixes the field while each test's responses differ; age overrides the profile's", () => {
    const a = createPerimetryTest({ spec, profile: "moderate", seed: "t1", patientSeed: "patient-7/OD", age: 50 });
    const b = createPerimetryTest({ spec, profile: "moderate", seed: "t2", patientSeed: "patient-7/OD", age: 50 });
    expect(a.patient.trueThresholds).toEqual(b.patient.trueThresholds);
    expect(a.patient.age).toBe(50);
    expect(runToEnd(a).thresholds).not.toEqual(runToEnd(b).thresholds);
  });

  it("an unresponsive patient answers nothing and the run of unanswered presentations grows", () => {
    const t = createPerimetryTest({ spec, profile: "healthy", seed: 3 });
    for (let i = 0; i < 5; i++) t.step();
    t.unresponsive = true;
    for (let i = 0; i < 12; i++) expect(t.step().presentation.seen).toBe(false);
    expect(t.unansweredInARow).toBeGreaterThanOrEqual(12);
  });
});
