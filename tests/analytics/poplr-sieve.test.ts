import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { poplr } from "../../core/analytics/progression/poplr.ts";
import { contributionTable, exactTerms } from "../../core/analytics/progression/poplr-table.ts";

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
      { numRuns: 40 },
    );
  });

  it("the table's error limit holds between its points (checked far more finely than it was measured)", () => {
    for (const df of [3, 8, 25]) {
      const table = contributionTable(df, 1e-6);
      let worst = 0;
      // Past the grid's ends too: the terms are constant there, and the sieve uses the end points.
      for (let s = -20_000; s <= 420_000; s++) {
        const t = table.limit * ((2 * s) / 400_000 - 1);
        const at = Math.min(table.intervals, Math.max(0, (t + table.limit) * (table.intervals / (2 * table.limit))));
        const i = Math.min(table.intervals - 1, Math.floor(at));
        const w = at - i;
        const [l, rt] = exactTerms(t, df, 1e-6);
        worst = Math.max(
          worst,
          Math.abs(table.left[i]! + w * (table.left[i + 1]! - table.left[i]!) - l),
          Math.abs(table.right[i]! + w * (table.right[i + 1]! - table.right[i]!) - rt),
        );
      }
      expect(worst).toBeLessThan(table.bound);
      expect(table.bound).toBeLessThan(1e-3);
    }
  });
});
