import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { poplr } from "../../core/analytics/progression/poplr.ts";
import { sieveFlags, UNDECIDED } from "../../core/analytics/progression/poplr-sieve.ts";
import {
  correlationTable,
  exactTerms,
  INTERPOLATED_LIMIT,
  NEAREST_LIMIT,
  STRIDE,
  tOfCorrelation,
} from "../../core/analytics/progression/poplr-table.ts";

// PoPLR's p-value is a count: "the proportion of permutations with S at least as large as the observed S" (O'Leary,
// Chauhan & Artes, IOVS 2012). poplr.ts sieves the orders with a table of each location's terms and recomputes exactly
// the ones near the observed statistic; these tests hold the sieve to the exhaustive count, tie for tie.

/** A series with what makes counting hard: whole-dB values (ties), invariant locations, a perfect fit, equal dates. */
const series = fc
  .record({
    visits: fc.integer({ min: 5, max: 14 }),
    locations: fc.integer({ min: 1, max: 54 }),
    rate: fc.double({ min: -3, max: 1, noNaN: true }),
    noise: fc.constantFrom(0, 0.5, 1, 3),
    invariantEvery: fc.constantFrom(0, 3, 7),
    sameDay: fc.boolean(),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
  })
  .map((s) => {
    let state = s.seed;
    const rnd = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const years = [...Array(s.visits).keys()].map((v) => v * 0.5 + Math.round(rnd() * 4) / 8);
    years.sort((a, b) => a - b);
    if (s.sameDay) years[2] = years[1]!;
    const rows = years.map((t) =>
      [...Array(s.locations).keys()].map((l) =>
        s.invariantEvery && l % s.invariantEvery === 0
          ? 25
          : l === 1
            ? 30 + 2 * t
            : Math.round(30 + s.rate * t + s.noise * (rnd() - 0.5) * 4),
      ),
    );
    return { years, rows };
  });

describe("PoPLR's sieve counts exactly what the exhaustive count does", () => {
  it("equal p-values on both tails for any series (random and exact permutations)", () => {
    fc.assert(
      fc.property(series, fc.constantFrom(120, 720, 5040), ({ years, rows }, nperm) => {
        const sieved = poplr(years, rows, { nperm });
        const exhaustive = poplr(years, rows, { nperm, exhaustive: true });
        expect(sieved).toEqual(exhaustive);
      }),
      { numRuns: 100 },
    );
  });

  it("the sieve runs in WebAssembly here (the property above would also pass on the exhaustive fallback)", () => {
    const years = [0, 0.5, 1, 1.5, 2];
    const perms = [
      [0, 1, 2, 3, 4],
      [4, 3, 2, 1, 0],
    ];
    // One location falling 1 dB a visit, exactly: the reversed order is a perfect rise, far above on the left tail
    // (its left statistic is near 0, so below the observed one) and far below on the right.
    const table = correlationTable(3, 1e-6);
    const [obsLeft, obsRight] = exactTerms(-Infinity, 3, 1e-6);
    const flags = sieveFlags({
      perms,
      years,
      centred: Float64Array.from([2, 1, 0, -1, -2]),
      toGrid: Float64Array.from([table.intervals / 2 / Math.sqrt(2.5 * 10)]),
      table,
      tableKey: "3:1e-6",
      constantLeft: 0,
      constantRight: 0,
      observedLeft: obsLeft,
      observedRight: obsRight,
    });
    expect(flags).not.toBeNull();
    expect(flags![1]! & UNDECIDED).toBe(0);
    expect(flags![1]).toBe(1);
  });

  it("each interval's and each point's error limits hold between the points (checked far more finely than measured)", () => {
    for (const df of [3, 8, 25]) {
      const table = correlationTable(df, 1e-6);
      const { intervals, points } = table;
      // 40 points inside every interval, and the clip's kink where the terms bend most.
      const rs: number[] = [];
      for (let s = 0; s <= intervals * 40; s++) rs.push((2 * s) / (intervals * 40) - 1);
      for (const r of rs) {
        const at = Math.min(intervals, Math.max(0, (r + 1) * (intervals / 2)));
        const i = Math.floor(at);
        const w = at - i;
        const [l, rt] = exactTerms(tOfCorrelation(r, df), df, 1e-6);
        const p = STRIDE * i;
        const error = Math.max(Math.abs(points[p]! + w * points[p + 2]! - l), Math.abs(points[p + 1]! + w * points[p + 3]! - rt));
        expect(error).toBeLessThanOrEqual(points[p + INTERPOLATED_LIMIT]!);
        // The WebAssembly sieve's reading: the nearest point's terms as they are.
        const q = STRIDE * Math.round(at);
        const nearest = Math.max(Math.abs(points[q]! - l), Math.abs(points[q + 1]! - rt));
        expect(nearest).toBeLessThanOrEqual(points[q + NEAREST_LIMIT]!);
      }
      // Most of the grid is smooth: the limits that matter are small, except near the clip.
      const middle = points[STRIDE * (intervals / 2) + INTERPOLATED_LIMIT]!;
      expect(middle).toBeLessThan(1e-6);
    }
  });
});
