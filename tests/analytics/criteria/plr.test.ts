import { describe, expect, it } from "vitest";
import { getNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { locationChange, plrNouri2012, twoOmittingFits } from "../../../core/analytics/progression/criteria/plr-nouri-2012.ts";
import { plrThreeOmitting, threeOmittingFits } from "../../../core/analytics/progression/criteria/plr-three-omitting.ts";
import type { CriteriaSeries } from "../../../core/analytics/progression/criteria/series.ts";
import { Pattern } from "../../../core/model/enums.ts";

// Pointwise linear regression: Nouri-Mahdavi et al. 2012 (IOVS) as vfprogression describes it, and Gardiner & Crabb's
// (IOVS 2002) "three-omitting" confirmation. The series here are TD fields written out by hand.

const pattern = Pattern.P24_2;
const blind = new Set(getPattern(pattern).blindSpotIndices);

/** A series of TD fields: every location 0 dB except `at`, which follows its own values. */
function series(years: number[], at: Record<number, number[]>): CriteriaSeries {
  const td = years.map((_, k) => getPattern(pattern).points.map((_, i) => (blind.has(i) ? null : (at[i]?.[k] ?? 0))));
  return {
    pattern,
    nv: getNormativeDatabase(pattern, null)!,
    analysis: { nvisits: years.length, years, visits: { td, tdp: [], global: [] } } as unknown as CriteriaSeries["analysis"],
  };
}
const years5 = [0, 0.5, 1, 1.5, 2];
const falling = [0, -2.1, -3.9, -6.05, -8]; // about -4 dB/year, close to a line

describe("PLR after Nouri-Mahdavi 2012", () => {
  it("a location changes at |slope| >= 1 dB/year with two-sided p <= 0.01; worsening when negative", () => {
    expect(locationChange({ slope: -1.2, t: -20, df: 8 })).toBe(-1);
    expect(locationChange({ slope: 1.2, t: 20, df: 8 })).toBe(1);
    expect(locationChange({ slope: -0.99, t: -50, df: 8 })).toBe(0); // too slow, however significant
    expect(locationChange({ slope: -3, t: -2, df: 8 })).toBe(0); // fast, not significant (p about 0.08)
    expect(locationChange(null)).toBe(0); // a fit over no time
  });

  it("confirms by two-omitting: without the last visit and without the one before it", () => {
    expect(twoOmittingFits(5)).toEqual([
      [0, 1, 2, 3],
      [0, 1, 2, 4],
    ]);
  });

  it("the eye worsens when worsening locations outnumber improving ones by 3 (vfprogression: worsening >= improving + 3)", () => {
    const three = series(years5, { 0: falling, 1: falling, 2: falling });
    const two = series(years5, { 0: falling, 1: falling });
    const offset = series(years5, { 0: falling, 1: falling, 2: falling, 3: falling.map((v) => -v) });
    expect(plrNouri2012(three)).toMatchObject({ verdict: "worsening", detail: { worseningLocations: [0, 1, 2] } });
    expect(plrNouri2012(two)).toMatchObject({ verdict: "stable" });
    expect(plrNouri2012(offset)).toMatchObject({ verdict: "stable", detail: { improvingLocations: [3] } });
    const rising = series(years5, { 0: falling.map((v) => -v), 1: falling.map((v) => -v), 2: falling.map((v) => -v) });
    expect(plrNouri2012(rising)).toMatchObject({ verdict: "improving", detail: { improvingLocations: [0, 1, 2] } });
  });

  it("not applicable with fewer than 4 visits (each fit needs 3), under six months, or off 24-2 and 30-2", () => {
    expect(plrNouri2012(series([0, 0.5, 1], { 0: falling }))).toMatchObject({ applicable: false, reason: "too-few-visits" });
    expect(plrNouri2012(series([0, 0.1, 0.2, 0.3], {}))).toMatchObject({ applicable: false, reason: "too-short-follow-up" });
    expect(plrNouri2012({ ...series(years5, {}), pattern: Pattern.P10_2 })).toMatchObject({ applicable: false, reason: "pattern" });
  });
});

describe("PLR with the three-omitting confirmation (Gardiner & Crabb, IOVS 2002)", () => {
  it(
    "the published worked example: 'consider a patient with five fields in the series, numbered n1 through n5. PLRA is " +
      "applied ... after removal of the last two VFs (i.e., n1-n3). If a point satisfies the standard ... criteria, the " +
      "last field of the sequence is omitted, and the next field added ... (n1, n2, n4). If the slope again satisfies " +
      "standard criteria, ... the slope is reconstructed with the final field of the series (n1, n2, and n5). If the " +
      "slope still satisfies the standard criteria, the VF is said to be progressing. Using these criteria, the " +
      "estimated specificity is between 95.2% and 98.2%.' (iovs.arvojournals.org/article.aspx?articleid=2164743)",
    () => {
      expect(threeOmittingFits(5)).toEqual([
        [0, 1, 2],
        [0, 1, 3],
        [0, 1, 4],
      ]);
      // With more fields the first n - 3 stay in every fit.
      expect(threeOmittingFits(7)).toEqual([
        [0, 1, 2, 3, 4],
        [0, 1, 2, 3, 5],
        [0, 1, 2, 3, 6],
      ]);
    },
  );

  it("a location progresses only when all three fits do: n4 out of line stops it, though the other fits fall fast", () => {
    // Three visits leave one degree of freedom: p <= 0.01 then asks |t| >= 63.7, so these fall on a line.
    const line = [0, -2, -4, -6, -8];
    const n4Outlier = [0, -2, -4, 0.5, -8];
    const all = series(years5, { 0: line, 1: line, 2: line });
    const broken = series(years5, { 0: line, 1: line, 2: n4Outlier });
    expect(plrThreeOmitting(all)).toMatchObject({ verdict: "worsening", detail: { worseningLocations: [0, 1, 2] } });
    expect(plrThreeOmitting(broken)).toMatchObject({ verdict: "stable", detail: { worseningLocations: [0, 1] } });
  });

  it("needs 5 visits (each of its fits needs 3)", () => {
    expect(plrThreeOmitting(series([0, 0.5, 1, 1.5], { 0: falling }))).toMatchObject({ applicable: false, reason: "too-few-visits" });
  });
});
