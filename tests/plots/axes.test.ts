import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evenTicks, niceTicks, tickCount } from "../../core/plots/axes.ts";
import { bebieScene } from "../../core/plots/bebie.ts";
import { sampleDefects } from "./fixtures.ts";
import { textsOf, group } from "./helpers.ts";

// Accounts seed §9: "Chart ticks: about one per 300 px width and 50 px height".
describe("Chart ticks: about one per 300 px width and 50 px height", () => {
  it.each([
    [300, "x", 2],
    [600, "x", 2],
    [900, "x", 3],
    [1200, "x", 4],
    [1500, "x", 5],
    [100, "y", 2],
    [200, "y", 4],
    [300, "y", 6],
    [500, "y", 10],
  ] as const)("%i px on %s: %i ticks", (px, axis, n) => {
    expect(tickCount(px, axis)).toBe(n);
  });

  it("never fewer than two ticks (both ends)", () => {
    expect(tickCount(10, "x")).toBe(2);
    expect(tickCount(10, "y")).toBe(2);
  });

  it("evenTicks gives exactly the count, from min to max", () => {
    expect(evenTicks(0, 10, 3)).toEqual([0, 5, 10]);
  });

  it("niceTicks cover the range with about the asked count of round values", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: 0.5, max: 60, noNaN: true }),
        fc.integer({ min: 2, max: 12 }),
        (lo, span, n) => {
          const { ticks, min, max } = niceTicks(lo, lo + span, n);
          expect(min).toBeLessThanOrEqual(lo + 1e-6);
          expect(max).toBeGreaterThanOrEqual(lo + span - 1e-6);
          expect(ticks[0]).toBeCloseTo(min);
          expect(ticks[ticks.length - 1]).toBeCloseTo(max);
          // "About": a 1-2-5 step lands within a factor of 2.5 of the asked count.
          expect(ticks.length).toBeGreaterThanOrEqual(2);
          expect(ticks.length).toBeLessThanOrEqual(Math.ceil(n * 2.5) + 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the Bebie curve's value axis grows its ticks with its height", () => {
    const small = bebieScene({ defects: sampleDefects(), width: 300, height: 150 });
    const tall = bebieScene({ defects: sampleDefects(), width: 300, height: 500 });
    const yLabels = (s: typeof small) => textsOf(s).filter((t) => /^-?\d+$/.test(t)).length;
    expect(yLabels(tall)).toBeGreaterThan(yLabels(small));
    expect(group(tall, "curve").children).toHaveLength(1);
  });
});
