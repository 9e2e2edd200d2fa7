import { describe, expect, it } from "vitest";
import { Pattern, type SorsLocations, StimuliUpdate, Strategy, patternLabel } from "../../core/model/enums.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { durationBaseTimes, estimatedDurationSeconds } from "../../core/rules/duration.ts";
import { type PerimetryTestSpec, createPerimetryTest } from "../../simulator/perimetry/engine.ts";
import { specFor } from "../../simulator/perimetry/evaluate.ts";
import { runOnClock } from "../../simulator/perimetry/run.ts";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";

// "Estimated duration in seconds = base time for pattern and strategy divided by (2000 divided by stimuli update, adaptive
// counting as 2000), rounded, plus 85 with audio guide, 50 with gaze tracking, 120 with tutorial." (scheduling seed §9)
// The engine's duration is the playing phase only (the headset adds audio guide, calibration and tutorial), so the
// estimate is taken without the extras. Measured on a virtual clock driving the test at speed 1, for healthy simulated
// patients.

const combos: Array<{ pattern: Pattern; strategy: Strategy; sors: SorsLocations | null }> = Object.entries(durationBaseTimes).flatMap(
  ([p, base]) => [
    ...Object.keys(base!.byStrategy).map((s) => ({ pattern: Number(p) as Pattern, strategy: Number(s) as Strategy, sors: null })),
    ...Object.keys(base!.sors ?? {}).map((k) => ({
      pattern: Number(p) as Pattern,
      strategy: Strategy.SORS as Strategy,
      sors: Number(k) as SorsLocations,
    })),
  ],
);

/** Mean seconds of `runs` healthy patients' tests, each driven at speed 1 on its own virtual clock. */
const meanSecondsOnClock = (spec: PerimetryTestSpec, runs: number): number => {
  let total = 0;
  for (let r = 0; r < runs; r++) {
    const clock = createVirtualClock(0);
    const test = createPerimetryTest({ spec, profile: "healthy", seed: `2026/healthy/${r}` });
    let finished = false;
    runOnClock(test, clock, { speed: 1, onDone: () => (finished = true) });
    clock.runAll();
    if (!finished) throw new Error("test did not finish");
    total += clock.now() / 1000;
  }
  return total / runs;
};

const estimate = (pattern: Pattern, strategy: Strategy, sors: SorsLocations | null, update: StimuliUpdate) =>
  estimatedDurationSeconds({
    pattern,
    strategy,
    sorsStage: sors ?? 36,
    stimuliUpdate: update,
    audioGuide: false,
    trackGaze: false,
    tutorial: false,
  })!;

describe("simulated test duration against the seeds' estimate (within 15 %)", () => {
  it("covers every pattern and strategy of the duration table (24-2, G, 10-2, 30-2, S28, Esterman)", () => {
    expect(combos).toHaveLength(24);
  });

  for (const { pattern, strategy, sors } of combos) {
    const name = `${patternLabel[pattern]} ${Object.entries(Strategy).find(([, v]) => v === strategy)![0]}${sors ? ` ${sors}` : ""}`;
    it(`${name} at a 2000 ms update`, () => {
      // Enough runs that about 800 locations are tested: one patient's test varies by several percent (a 10-location
      // SORS run by more), and the bound is on the simulator's typical time, not on one patient.
      const tested = sors ?? getPattern(pattern).points.length;
      const seconds = meanSecondsOnClock(specFor(pattern, strategy, sors, StimuliUpdate.Ms2000), Math.ceil(800 / tested));
      const expected = estimate(pattern, strategy, sors, StimuliUpdate.Ms2000);
      expect(Math.abs(seconds / expected - 1)).toBeLessThanOrEqual(0.15);
    });
  }

  it("a 1000 ms update halves the estimate and the simulated time alike (24-2 Normal, Esterman 1LT)", () => {
    for (const [pattern, strategy] of [
      [Pattern.P24_2, Strategy.Normal],
      [Pattern.Esterman, Strategy.OneLevel],
    ] as const) {
      const seconds = meanSecondsOnClock(specFor(pattern, strategy, null, StimuliUpdate.Ms1000), 8);
      expect(Math.abs(seconds / estimate(pattern, strategy, null, StimuliUpdate.Ms1000) - 1)).toBeLessThanOrEqual(0.15);
    }
  });
});
