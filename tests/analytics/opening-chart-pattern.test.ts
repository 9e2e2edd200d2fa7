import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { openingChartPattern, type ProgressionPoint } from "../../core/analytics/progression/md-slope.ts";

// Issue 30: "The patient page opens on the pattern the patient has the most results of." The chart's patterns are G and
// 24-2 ("Progression chart uses only valid results with pattern G or 24-2 that are not unreliable", accounts seed §5);
// the stored client setting ("pattern (default analysis pattern 24-2)") decides a tie and a patient without results.

const point = (k: number, pattern: Pattern, over: Partial<ProgressionPoint> = {}): ProgressionPoint => ({
  measurementId: `m${k}`,
  takenAt: new Date(Date.UTC(2024, 0, 1 + k)).toISOString(),
  meanDefect: -2,
  eye: Eye.Right,
  pattern,
  ...over,
});

describe("the pattern a patient's chart opens on", () => {
  it("is the chart pattern with the most chartable results; a tie or none keeps the stored choice", () => {
    fc.assert(
      fc.property(fc.nat(6), fc.nat(6), fc.nat(4), fc.constantFrom(Pattern.P24_2, Pattern.G), (n24, nG, n30, stored) => {
        const points = [
          ...Array.from({ length: n24 }, (_, k) => point(k, Pattern.P24_2)),
          ...Array.from({ length: nG }, (_, k) => point(100 + k, Pattern.G)),
          ...Array.from({ length: n30 }, (_, k) => point(200 + k, Pattern.P30_2)),
        ];
        const expected = n24 === nG ? stored : n24 > nG ? Pattern.P24_2 : Pattern.G;
        expect(openingChartPattern(points, stored)).toBe(expected);
      }),
    );
  });

  it("counts only what the chart draws: unreliable, invalid and unmeasured results do not pull it", () => {
    const points = [
      point(1, Pattern.P24_2),
      point(2, Pattern.G, { unreliable: true }),
      point(3, Pattern.G, { valid: false }),
      point(4, Pattern.G, { meanDefect: null }),
    ];
    expect(openingChartPattern(points, Pattern.G)).toBe(Pattern.P24_2);
  });

  it("a stored pattern the chart does not draw reads as the seed's default, 24-2", () => {
    expect(openingChartPattern([], Pattern.P30_2)).toBe(Pattern.P24_2);
  });
});
