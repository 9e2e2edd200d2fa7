import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../core/model/enums.ts";
import { getPattern, type PatternGeometry } from "../../core/analytics/patterns.ts";
import { sunyiu24d2 } from "../../core/analytics/normative/generated/sunyiu-24d2.ts";
import type { LocationVector, NormativeTables } from "../../core/analytics/normative/tables.ts";
import { globalIndices } from "../../core/analytics/global-indices.ts";
import { generalHeight, patternDeviation, probabilityLevel, probabilityMap, totalDeviation } from "../../core/analytics/pointwise.ts";
import { octopusIndices } from "../../core/analytics/octopus.ts";
import { linearRegression, pointwiseRegression } from "../../core/analytics/progression/linear-regression.ts";
import { MIN_SLOPE_RESULTS, MIN_SLOPE_SPAN_DAYS, mdSlope } from "../../core/analytics/progression/md-slope.ts";
import { Eye } from "../../core/model/enums.ts";

const nv = sunyiu24d2;
const geometry = getPattern(Pattern.P24_2);
const field = fc.array(fc.integer({ min: -2, max: 38 }), { minLength: 54, maxLength: 54 });
const age = fc.integer({ min: 20, max: 90 });

function analyse(tables: NormativeTables, geo: PatternGeometry, s: LocationVector, a: number) {
  const blind = new Set(tables.blindSpotIndices);
  const sens = s.map((v, i) => (blind.has(i) ? null : v));
  const td = totalDeviation(tables, s, a);
  const pd = patternDeviation(td, generalHeight(td, tables.ghRank));
  return { td, pd, g: globalIndices(tables, geo, sens, td, pd, a) };
}

/** The same database and geometry with the locations listed in another order. */
function permuted(order: number[]): { tables: NormativeTables; geo: PatternGeometry } {
  const p = <T>(v: ReadonlyArray<T>) => order.map((i) => v[i]!);
  const where = new Map(order.map((old, pos) => [old, pos]));
  return {
    tables: {
      ...nv,
      intercept: p(nv.intercept),
      slope: p(nv.slope),
      sd: { vf: p(nv.sd.vf), td: p(nv.sd.td), pd: p(nv.sd.pd) },
      tdLut: nv.tdLut.map(p),
      pdLut: nv.pdLut.map(p),
      blindSpotIndices: nv.blindSpotIndices.map((i) => where.get(i)!),
    },
    geo: { ...geometry, points: p(geometry.points), blindSpotIndices: geometry.blindSpotIndices.map((i) => where.get(i)!) },
  };
}

describe("properties (issue #3)", () => {
  it("MD does not depend on location order (visualFields tmd, psd, VFI and the Octopus MD)", () => {
    fc.assert(
      fc.property(field, age, fc.array(fc.nat(), { minLength: 54, maxLength: 54 }), (s, a, keys) => {
        const order = [...Array(54).keys()].sort((i, j) => keys[i]! - keys[j]! || i - j);
        const { tables, geo } = permuted(order);
        const base = analyse(nv, geometry, s, a).g;
        const moved = analyse(
          tables,
          geo,
          order.map((i) => s[i]!),
          a,
        ).g;
        for (const k of ["tmd", "tsd", "pmd", "psd", "gh", "vfi", "msens"] as const) expect(moved[k]).toBeCloseTo(base[k], 9);
        const normal = s.map((_, i) => (nv.intercept[i] === null ? null : 30 - i / 10));
        const o1 = octopusIndices(normal, s),
          o2 = octopusIndices(
            order.map((i) => normal[i]!),
            order.map((i) => s[i]!),
          );
        expect(o2.md).toBeCloseTo(o1.md, 9);
        expect(o2.slv).toBeCloseTo(o1.slv, 9);
      }),
      { numRuns: 40 },
    );
  });

  it("shifting every sensitivity by c shifts every TD by c and leaves PD unchanged", () => {
    fc.assert(
      fc.property(field, age, fc.double({ min: -10, max: 10, noNaN: true }), (s, a, c) => {
        const base = analyse(nv, geometry, s, a);
        const shifted = analyse(
          nv,
          geometry,
          s.map((v) => v + c),
          a,
        );
        base.td.forEach((t, i) => {
          if (t === null) return expect(shifted.td[i]).toBeNull();
          expect(shifted.td[i]! - t).toBeCloseTo(c, 9);
          expect(shifted.pd[i]!).toBeCloseTo(base.pd[i]!, 9);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("probability levels are monotone in the value (TD and PD, every location)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 53 }),
        fc.double({ min: -40, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        (loc, v, d) => {
          if (nv.blindSpotIndices.includes(loc)) return;
          for (const lut of [nv.tdLut, nv.pdLut])
            expect(probabilityLevel(lut, loc, v + d)).toBeGreaterThanOrEqual(probabilityLevel(lut, loc, v));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a probability map gives each location probabilityLevel's level (limits hit exactly, nulls, tables with gaps)", () => {
    // probabilityMap reads a table laid out location by location (a speed-up); the rule stays probabilityLevel's.
    const withGaps = nv.tdLut.map((row, k) => row.map((q, loc) => (loc === 7 && k === 2 ? null : q)));
    fc.assert(
      fc.property(
        fc.constantFrom(nv.tdLut, nv.pdLut, withGaps),
        fc.array(fc.option(fc.integer({ min: 0, max: 53 }), { nil: null }), { minLength: 54, maxLength: 54 }),
        fc.infiniteStream(fc.double({ min: -40, max: 20, noNaN: true })),
        (lut, picks, noise) => {
          // An even pick puts the value exactly on one of the location's limits (the test is strict), an odd one anywhere.
          const values = picks.map((p, loc) => (p === null ? null : p % 2 === 0 ? (lut[p % lut.length]![loc] ?? 0) : noise.next().value));
          expect(probabilityMap(lut, values)).toEqual(
            values.map((v, loc) => (v === null || lut[0]![loc] === null ? null : probabilityLevel(lut, loc, v))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a noiseless linear series gives its exact slope (glr, plr and the chart's MD slope)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { minLength: 3, maxLength: 15 }),
        // visualFields treats a series with SD <= 1e-6 as flat (slope 0), so slopes are 0 or at least 0.01 dB/year.
        fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 3, noNaN: true }), fc.double({ min: -3, max: -0.01, noNaN: true })),
        fc.double({ min: -30, max: 30, noNaN: true }),
        (days, slope, intercept) => {
          const sorted = [...days].sort((a, b) => a - b);
          const years = sorted.map((d) => (d - sorted[0]!) / 365.25);
          const y = years.map((t) => intercept + slope * t);
          const r = linearRegression(years, y);
          expect(r.slope).toBeCloseTo(slope, 8);
          const p = pointwiseRegression(
            years,
            y.map((v) => [v, null]),
          );
          expect(p[0]!.slope).toBeCloseTo(r.slope, 12);
          expect(p[1]).toBeNull();
          const points = sorted.map((d, i) => ({
            measurementId: `m${i}`,
            takenAt: new Date(Date.UTC(2020, 0, 1) + d * 86_400_000).toISOString(),
            meanDefect: y[i]!,
            eye: Eye.Right,
            pattern: Pattern.P24_2,
          }));
          const chart = mdSlope(points, { eye: Eye.Right });
          if (sorted.at(-1)! - sorted[0]! < MIN_SLOPE_SPAN_DAYS) {
            expect(chart).toMatchObject({ slopePerYear: null, noSlope: "too-short-span" });
          } else {
            expect(chart.unrounded!).toBeCloseTo(slope, 8);
            expect(Math.abs(chart.slopePerYear! - slope)).toBeLessThanOrEqual(0.05 + 1e-9);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("TD through precomputed normals", () => {
  it("deviationFromNormal(normalSensitivity) is bit-identical to totalDeviation (the strict level test depends on it)", async () => {
    const { deviationFromNormal, normalSensitivity } = await import("../../core/analytics/pointwise.ts");
    fc.assert(
      fc.property(field, fc.double({ min: 10, max: 95, noNaN: true }), (s, a) => {
        expect(deviationFromNormal(normalSensitivity(nv, a), s)).toEqual(totalDeviation(nv, s, a));
      }),
      { numRuns: 100 },
    );
  });

  it("the MD slope rule (issue 20): a slope only from at least 3 results spanning at least 182 days, whatever the values", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ minutes: fc.integer({ min: 0, max: 400 * 24 * 60 }), md: fc.double({ min: -30, max: 5, noNaN: true }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        (visits) => {
          const points = visits.map((v, i) => ({
            measurementId: `m${i}`,
            takenAt: new Date(Date.UTC(2020, 0, 1) + v.minutes * 60_000).toISOString(),
            meanDefect: v.md,
            eye: Eye.Right,
            pattern: Pattern.P24_2,
          }));
          const s = mdSlope(points, { eye: Eye.Right });
          const span = (Math.max(...visits.map((v) => v.minutes)) - Math.min(...visits.map((v) => v.minutes))) / (24 * 60);
          const allowed = visits.length >= MIN_SLOPE_RESULTS && span >= MIN_SLOPE_SPAN_DAYS;
          expect(s.slopePerYear !== null || s.unrounded === null).toBe(true);
          if (!allowed) expect(s.slopePerYear).toBeNull();
          expect(s.noSlope).toBe(
            visits.length < MIN_SLOPE_RESULTS ? "too-few-results" : span < MIN_SLOPE_SPAN_DAYS ? "too-short-span" : null,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
