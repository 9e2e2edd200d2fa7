import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Procedure } from "../../simulator/perimetry/procedures/procedure.ts";
import { normalStrategy, staircase42 } from "../../simulator/perimetry/procedures/staircase.ts";
import { dynamicStep, dynamicStrategy } from "../../simulator/perimetry/procedures/dynamic.ts";
import { oneLevel, supraThreshold } from "../../simulator/perimetry/procedures/screening.ts";

/** Run a procedure against an ideal observer (seen whenever the level is at most t) and return the levels shown. */
const runIdeal = (p: Procedure, t: number): number[] => {
  const shown: number[] = [];
  while (!p.done) {
    const level = p.nextLevel();
    shown.push(level);
    p.record(level, level <= t);
    if (shown.length > 100) throw new Error("runaway procedure");
  }
  return shown;
};

describe("Normal: 4-2 staircase (analytics.md: '4 dB steps to the first reversal, then 2 dB; stop after 2 reversals')", () => {
  it("steps 4 dB to the first reversal, then 2 dB, and stops at the second", () => {
    expect(runIdeal(staircase42(26), 31.5)).toEqual([26, 30, 34, 32, 30]);
    expect(runIdeal(staircase42(26), 32.5)).toEqual([26, 30, 34, 32]);
    expect(runIdeal(staircase42(30), 23)).toEqual([30, 26, 22, 24]);
  });

  it("an ideal observer's threshold is bracketed to +-1 dB (Octopus Normal brackets to +-1 dB)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 38 }), fc.integer({ min: -8, max: 8 }), (t, offset) => {
        const p = staircase42(t + offset);
        runIdeal(p, t + 0.5);
        expect(Math.abs(p.estimate() - (t + 0.5))).toBeLessThanOrEqual(1.5);
      }),
      { numRuns: 100 },
    );
  });

  it("ends at the bounds: seen at 40 dB, or missed twice at 0 dB (reported as -1, '<0 dB', apart from a 0 dB seen)", () => {
    const blind = staircase42(4);
    expect(runIdeal(blind, -10)).toEqual([4, 0, 0]);
    expect(blind.estimate()).toBe(-1);
    const superb = staircase42(38);
    runIdeal(superb, 45);
    expect(superb.estimate()).toBe(40);
  });

  it("re-determines a threshold more than 4 dB from the expected level and reports the mean", () => {
    const p = normalStrategy(26, 30);
    const shown = runIdeal(p, 15.5);
    expect(p.presentations).toBe(shown.length);
    expect(shown.length).toBeGreaterThan(runIdeal(staircase42(26), 15.5).length);
    expect(Math.abs(p.estimate() - 15.5)).toBeLessThanOrEqual(1.5);
    const near = normalStrategy(26, 30);
    expect(runIdeal(near, 29.5)).toEqual(runIdeal(staircase42(26), 29.5));
  });
});

describe("DS (analytics.md: 'step size grows with defect depth (2 to 10 dB), crosses threshold once')", () => {
  it("step sizes grow from 2 dB near normal to 10 dB in deep defects", () => {
    expect(dynamicStep(30, 30)).toBe(2);
    expect(dynamicStep(20, 30)).toBe(6);
    expect(dynamicStep(5, 30)).toBe(10);
  });

  it("crosses the threshold once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 36 }), fc.integer({ min: 20, max: 34 }), (t, expected) => {
        const p = dynamicStrategy(expected, expected);
        const shown = runIdeal(p, t + 0.5);
        const responses = shown.map((l) => l <= t + 0.5);
        const changes = responses.slice(1).filter((r, i) => r !== responses[i]).length;
        expect(changes).toBeLessThanOrEqual(1);
        expect(Math.abs(p.estimate() - (t + 0.5))).toBeLessThanOrEqual(5.5);
      }),
      { numRuns: 100 },
    );
  });
});

describe("screening", () => {
  it("Supra: 'present at the normal 95th-percentile level, up to 3 times, seen on the first seen'", () => {
    const missed = supraThreshold(26);
    expect(runIdeal(missed, 10)).toEqual([26, 26, 26]);
    expect(missed.seen).toBe(false);
    const seenLate = supraThreshold(26);
    let n = 0;
    while (!seenLate.done) seenLate.record(seenLate.nextLevel(), ++n === 2);
    expect(seenLate.presentations).toBe(2);
    expect(seenLate.seen).toBe(true);
    expect(seenLate.estimate()).toBe(26);
  });

  it("1LT: 'one level (10 dB for Esterman) per location, seen or not'; a miss is shown once more", () => {
    const seen = oneLevel(10);
    expect(runIdeal(seen, 20)).toEqual([10]);
    expect(seen.seen).toBe(true);
    const missed = oneLevel(10);
    expect(runIdeal(missed, 5)).toEqual([10, 10]);
    expect(missed.seen).toBe(false);
    expect(missed.estimate()).toBe(0);
  });
});
