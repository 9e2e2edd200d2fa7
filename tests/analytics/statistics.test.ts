import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTCdfBeta,
  studentTCdfInteger,
} from "../../core/analytics/statistics/student-t.ts";
import { RRandom } from "../../core/analytics/statistics/r-random.ts";
import { weightedQuantiles } from "../../core/analytics/statistics/weighted-quantile.ts";
import { allPermutations, randomPermutations } from "../../core/analytics/progression/poplr.ts";
import { progressionReference } from "./reference-data.ts";

describe("Student t distribution (accuracy 1e-9 or better)", () => {
  it("agrees with R's pt() on every t value in the reference (624 pointwise + global regressions)", () => {
    let worst = 0,
      n = 0;
    for (const s of progressionReference())
      for (const sub of [s.all, s.first7]) {
        const df = sub.nvisits - 2;
        for (const k of ["s", "td", "pd"]) {
          const p = sub.plr[k];
          p.tval.forEach((t: number | null, i: number) => {
            if (t === null) return;
            n++;
            worst = Math.max(worst, Math.abs(studentTCdf(t, df) - p.pval[i]), Math.abs(studentTCdfBeta(t, df) - p.pval[i]));
          });
        }
      }
    expect(n).toBeGreaterThan(600);
    expect(worst).toBeLessThan(1e-12);
  });
  it("known values: Cauchy (df 1) and closed forms for df 2", () => {
    for (const t of [-50, -3, -1, -0.2, 0, 0.7, 4, 100]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 14);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 14);
      expect(studentTCdfBeta(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13);
    }
  });
  it("far tails are accurate in relative terms (df 4: P(T <= t) = closed form)", () => {
    // df 4: F(t) = 1/2 + t (t^2 + 6) / (2 (t^2 + 4)^{3/2}); at t = -1000 that is 2.99998000010499950e-12 (60-digit decimal).
    const exact = (t: number) => 0.5 + (t * (t * t + 6)) / (2 * (t * t + 4) ** 1.5);
    expect(studentTCdf(-3, 4)).toBeCloseTo(exact(-3), 15);
    const lower = studentTCdf(-1000, 4);
    expect(lower).toBeGreaterThan(0);
    expect(Math.abs(lower - 2.9999800001049993e-12) / 3e-12).toBeLessThan(1e-9);
  });
  it("integer series and incomplete-beta routes agree to 1e-13 (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 60, noNaN: true }), fc.integer({ min: 1, max: 60 }), (t, df) => {
        expect(Math.abs(studentTCdfInteger(t, df) - studentTCdfBeta(t, df))).toBeLessThan(1e-13);
      }),
      { numRuns: 300 },
    );
  });
  it("non-integer df uses the incomplete beta; symmetry F(-t) = 1 - F(t)", () => {
    expect(studentTCdf(1.3, 2.5) + studentTCdf(-1.3, 2.5)).toBeCloseTo(1, 14);
    expect(regularizedIncompleteBeta(0.3, 2, 3)).toBeCloseTo(0.3483, 14); // I_0.3(2,3) = 0.3483 exactly
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
  });
});

describe("R-compatible random generator (PoPLR permutations)", () => {
  it("set.seed(1); runif(3) and sample(10) give R's values", () => {
    const r = new RRandom(1);
    expect([r.unif(), r.unif(), r.unif()].map((v) => v.toFixed(7))).toEqual(["0.2655087", "0.3721239", "0.5728534"]);
    expect(new RRandom(1).permutation(10).map((v) => v + 1)).toEqual([9, 4, 7, 1, 2, 5, 3, 10, 6, 8]);
  });
  it("random permutation sets start with the identity, are distinct and reproducible", () => {
    const a = randomPermutations(9, 200, 7);
    expect(a[0]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(a.map((p) => p.join())).size).toBe(200);
    expect(randomPermutations(9, 200, 7)).toEqual(a);
    expect(randomPermutations(9, 200, 8)).not.toEqual(a);
  });
  it("all permutations of n: n! distinct, identity first", () => {
    const p = allPermutations(5);
    expect(p).toHaveLength(120);
    expect(p[0]).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(p.map((x) => x.join())).size).toBe(120);
  });
});

describe("weighted quantiles (Hmisc type 'quantile')", () => {
  it("with unit weights equals R's quantile type 7", () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    const w = x.map(() => 1);
    // R: quantile(c(3,1,4,1,5,9,2,6), c(0.05, 0.5, 0.95)) = 1.00 3.50 7.95
    const q = weightedQuantiles(x, w, [0.05, 0.5, 0.95]);
    expect(q[0]).toBeCloseTo(1, 12);
    expect(q[1]).toBeCloseTo(3.5, 12);
    expect(q[2]).toBeCloseTo(7.95, 12);
  });
  it("sums weights as R does in extended precision (five weights of 1/5 reach exactly 1)", () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const w = [0.2, 0.2, 0.2, 0.2, 0.2, 1, 1, 1, 1, 1];
    // n = 6, order(p = 0) = 1: the smallest value whose cumulative weight reaches 1 is the fifth.
    expect(weightedQuantiles(x, w, [0])[0]).toBe(5);
  });
});
