import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../core/model/enums.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { getNormativeDatabase, normativeVersions } from "../../core/analytics/normative/registry.ts";
import { globalIndices } from "../../core/analytics/global-indices.ts";
import { deviationFromNormal, generalHeight, normalSensitivity, patternDeviation, probabilityMap } from "../../core/analytics/pointwise.ts";
import { deviationIndices, withoutBlindSpots } from "../../core/analytics/result-analysis.ts";
import { fieldDeviations, fieldIndices } from "../../core/analytics/field-deviations.ts";
import type { LocationVector, NormativeTables } from "../../core/analytics/normative/tables.ts";

// deviationIndices computes TD, PD, their maps and the global indices in one typed pass (field-deviations.ts) for
// speed. The readable definitions stay in pointwise.ts and global-indices.ts (after visualFields 1.0.8), and the
// screens' numbers must not move by a bit: for every pattern and normative database, the pass gives exactly what
// those functions give, composed as analyseResult composed them before.

const databases = Object.values(Pattern).flatMap((pattern) =>
  normativeVersions.flatMap((version) => {
    const nv = getNormativeDatabase(pattern, version);
    return nv && !getPattern(pattern).binocular ? [{ pattern, version, nv }] : [];
  }),
);

/** The composition of the reference functions (what deviationIndices was). */
function reference(
  nv: NonNullable<ReturnType<typeof getNormativeDatabase>>,
  pattern: Pattern,
  thresholds: ReadonlyArray<number | null>,
  age: number,
) {
  const geometry = getPattern(pattern);
  const { sens } = withoutBlindSpots(geometry, thresholds);
  const normal = normalSensitivity(nv, age);
  const td = deviationFromNormal(normal, thresholds);
  const gh = generalHeight(td, nv.ghRank);
  const pd = patternDeviation(td, gh);
  const tdp = probabilityMap(nv.tdLut, td),
    pdp = probabilityMap(nv.pdLut, pd);
  return { normal, td, tdp, pd, pdp, gh, global: globalIndices(nv, geometry, sens, td, pd, age, { tdp, pdp, gh }) };
}

/** A field: sensitivities from blind (negative, "not seen") to supernormal, some fields deep (MD below -20: the VFI
 * then reads the TD map), ages with fractions; the blind spots tested or not, now and then a location not tested
 * (analyseResult passes only complete fields, the function takes any). */
const fieldOf = (pattern: Pattern) => {
  const geometry = getPattern(pattern);
  const blind = new Set(geometry.blindSpotIndices);
  const n = geometry.points.length;
  return fc
    .record({
      depth: fc.constantFrom(0, 0, 10, 25),
      values: fc.array(fc.oneof(fc.integer({ min: -2, max: 40 }), fc.double({ min: -1, max: 40, noNaN: true })), {
        minLength: n,
        maxLength: n,
      }),
      blindTested: fc.boolean(),
      untested: fc.oneof(fc.constant<number[]>([]), fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 5 })),
      age: fc.oneof(fc.integer({ min: 18, max: 95 }), fc.double({ min: 18, max: 95, noNaN: true })),
    })
    .map(({ depth, values, blindTested, untested, age }) => ({
      thresholds: values.map((v, i) => ((blind.has(i) && !blindTested) || untested.includes(i) ? null : Math.max(-2, v - depth))),
      age,
    }));
};

describe("fieldDeviations (through deviationIndices) against the reference functions", () => {
  it("covers every pattern that has normals", () => {
    expect(new Set(databases.map((d) => d.pattern))).toEqual(new Set([Pattern.P24_2, Pattern.P30_2, Pattern.P10_2, Pattern.G]));
  });

  for (const { pattern, version, nv } of databases)
    it(`${getPattern(pattern).label}, ${version}: the same numbers, bit for bit`, () => {
      const geometry = getPattern(pattern);
      fc.assert(
        fc.property(fieldOf(pattern), ({ thresholds, age }) => {
          const expected = reference(nv, pattern, thresholds, age);
          // toEqual tells -0 from 0 and compares NaN as equal only to NaN: a moved bit fails.
          expect(deviationIndices(nv, geometry, thresholds, age)).toEqual(expected);
          // Twice in a row: the pass reuses its arrays, and nothing of a call may leak into the next.
          expect(deviationIndices(nv, geometry, thresholds, age, normalSensitivity(nv, age))).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    });

  // The VFI and the table of `isopter analyse` read a level only against 5%: fieldIndices compares with one limit per
  // location (the largest of those up to 5%), not the search of the map. On real tables and on tables with gaps,
  // limits out of order and locations without a first limit, it must tell 5% or less exactly as the map does.
  const levelsUnder5 = (levels: ReadonlyArray<number | null>) => levels.filter((p) => p !== null && p <= 0.05).length;
  const disordered = (nv: NormativeTables, seed: number): NormativeTables => {
    const scramble = (lut: ReadonlyArray<LocationVector>) => {
      const rows = lut.map((row) => [...row]);
      for (let loc = 0; loc < nv.nloc; loc++) {
        const how = (loc * 7 + seed) % 5;
        if (how === 1) rows[1 + (loc % 3)]![loc] = null; // a gap below 5%
        if (how === 2) [rows[2]![loc], rows[3]![loc]] = [rows[3]![loc]!, rows[2]![loc]!]; // 2% above 5%
        if (how === 3) rows[0]![loc] = null; // no first limit: no level
        if (how === 4) rows[3]![loc] = null; // no 5% limit
      }
      return rows;
    };
    return { ...nv, tdLut: scramble(nv.tdLut), pdLut: scramble(nv.pdLut) };
  };
  const tables = [...databases, ...databases.map((d, k) => ({ ...d, version: `${d.version}, disordered`, nv: disordered(d.nv, k) }))];
  for (const { pattern, version, nv } of tables)
    it(`${getPattern(pattern).label}, ${version}: fieldIndices gives fieldDeviations' indices and the maps' counts at 5%`, () => {
      const geometry = getPattern(pattern);
      fc.assert(
        fc.property(fieldOf(pattern), ({ thresholds, age }) => {
          const expected = reference(nv, pattern, thresholds, age);
          const full = fieldDeviations(nv, geometry, thresholds, age);
          expect({ gh: full.gh, global: full.global }).toEqual({ gh: expected.gh, global: expected.global });
          expect([full.tdpUnder5, full.pdpUnder5]).toEqual([levelsUnder5(expected.tdp), levelsUnder5(expected.pdp)]);
          const { gh, global, tdpUnder5, pdpUnder5 } = fieldIndices(nv, geometry, thresholds, age);
          expect({ gh, global, tdpUnder5, pdpUnder5 }).toEqual({
            gh: full.gh,
            global: full.global,
            tdpUnder5: full.tdpUnder5,
            pdpUnder5: full.pdpUnder5,
          });
        }),
        { numRuns: 100 },
      );
    });

  it("refuses a field with fewer tested locations than the general height's rank, as generalHeight does", () => {
    const { nv, pattern } = databases[0]!;
    const geometry = getPattern(pattern);
    const thresholds = geometry.points.map((_, i) => (i < nv.ghRank - 1 ? 30 : null));
    expect(() => deviationIndices(nv, geometry, thresholds, 60)).toThrow(
      `general height needs at least ${nv.ghRank} locations, got ${nv.ghRank - 1}`,
    );
  });
});
