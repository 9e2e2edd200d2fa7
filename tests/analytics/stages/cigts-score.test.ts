import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../../core/model/enums.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { lutProbabilities, type ProbabilityLevel } from "../../../core/analytics/normative/tables.ts";
import { cigtsNeighbours, cigtsScore, cigtsWeight } from "../../../core/analytics/stages/cigts-score.ts";
import { grid24 } from "../../../core/analytics/stages/staging-grid.ts";

const levels: readonly ProbabilityLevel[] = [...lutProbabilities, 1];
const grid = grid24(Pattern.P24_2)!;
const size24 = getPattern(Pattern.P24_2).points.length;

/** A 24-2 TD probability map from 52 levels in 24-2 order (blind spots null). */
function map24(levels52: readonly ProbabilityLevel[]): Array<ProbabilityLevel | null> {
  const tdp: Array<ProbabilityLevel | null> = new Array(size24).fill(null);
  grid.forEach(({ index }, k) => {
    tdp[index] = levels52[k]!;
  });
  return tdp;
}
const score = (levels52: readonly ProbabilityLevel[]) => {
  const out = cigtsScore(map24(levels52), Pattern.P24_2);
  if (!out.applicable) throw new Error(out.reason);
  return out.score;
};
const anyMap = fc.array(fc.constantFrom(...levels), { minLength: 52, maxLength: 52 });
/** How deep a level is: 0 (p >= 5 %) to 4 (p < 0.5 %). */
const depth = (l: ProbabilityLevel) => cigtsWeight(l);

describe("CIGTS score (Musch et al. 1999; Gillespie et al. 2003)", () => {
  it("weights 1, 2, 3, 4 for TD p < 5 %, 2 %, 1 %, 0.5 %; not significant weighs 0", () => {
    expect([0.05, 0.02, 0.01, 0.005, 0.95, 1].map((l) => cigtsWeight(l as ProbabilityLevel))).toEqual([1, 2, 3, 4, 0, 0]);
  });

  it("neighbours are those of Gillespie et al. 2003 (within the hemifield; examples as vfprogression lists them)", () => {
    // 1-based 24-2 numbering of the 52 locations, as the papers and vfprogression number them.
    const lists = cigtsNeighbours(Pattern.P24_2)!;
    const number = new Map(grid.map(({ index }, k) => [index, k + 1]));
    const of = (n: number) => lists[n - 1]!.map((i) => number.get(i)!).sort((a, b) => a - b);
    expect(of(1)).toEqual([2, 5, 6, 7]);
    expect(of(17)).toEqual([9, 10, 16, 18, 25, 26]);
    expect(of(19)).toEqual([11, 20]);
    expect(of(26)).toEqual([17, 18]);
    expect(of(27)).toEqual([28, 35]);
    expect(of(34)).toEqual([41, 42]);
    expect(of(52)).toEqual([46, 47, 48, 51]);
  });

  it("the worked example (Gillespie et al. 2003, as vfprogression documents it) scores 8 / 10.4 = 0.769", () => {
    const example = new Array<ProbabilityLevel>(52).fill(1);
    const at: Array<[number, ProbabilityLevel]> = [
      [1, 0.05],
      [2, 0.02],
      [3, 0.05],
      [12, 0.05],
      [13, 0.02],
      [21, 0.01],
      [22, 0.005],
      [29, 0.02],
      [47, 0.01],
    ];
    for (const [n, l] of at) example[n - 1] = l;
    expect(score(example)).toBeCloseTo(0.7692308, 6);
  });

  it("a healthy field scores 0, a field with every location at p < 0.5 % scores 20", () => {
    expect(score(new Array(52).fill(1))).toBe(0);
    expect(score(new Array(52).fill(0.95))).toBe(0);
    expect(score(new Array(52).fill(0.005))).toBe(20);
  });

  it("'the lower of its own weight and its second-highest neighbour's': an isolated point, or a pair, counts nothing", () => {
    // Locations 15 (3, 9), 16 (9, 9) and 24 (3, 3) in the 1-based numbering are mutual neighbours.
    const one = new Array<ProbabilityLevel>(52).fill(1);
    one[15 - 1] = 0.005;
    expect(score(one)).toBe(0);
    one[16 - 1] = 0.005; // each now has one depressed neighbour, still no second
    expect(score(one)).toBe(0);
    one[24 - 1] = 0.005; // each has two: all three count 4
    expect(score(one)).toBeCloseTo(12 / 10.4, 12);
  });

  it("property: deeper loss never lowers the score", () => {
    fc.assert(
      fc.property(anyMap, anyMap, (a, b) => {
        const deeper = a.map((l, k) => (depth(b[k]!) > depth(l) ? b[k]! : l));
        expect(score(deeper)).toBeGreaterThanOrEqual(score(a));
      }),
    );
  });

  it("property: swapping the hemifields gives the same score (the definition is symmetric about the horizontal midline)", () => {
    const at = new Map(grid.map((p, k) => [`${p.x},${p.y}`, k]));
    const mirror = grid.map((p) => at.get(`${p.x},${-p.y}`)!);
    fc.assert(
      fc.property(anyMap, (a) => {
        expect(score(mirror.map((k) => a[k]!))).toBeCloseTo(score(a), 12);
      }),
    );
  });

  it("property: the score lies in 0-20", () => {
    fc.assert(
      fc.property(anyMap, (a) => {
        const s = score(a);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(20);
      }),
    );
  });

  it("on 30-2 it reads the 52 24-2 locations the grid contains (our choice) and ignores the outer ring", () => {
    const g30 = getPattern(Pattern.P30_2);
    const grid30 = grid24(Pattern.P30_2)!;
    expect(grid30.map((l) => [l.x, l.y])).toEqual(grid.map((l) => [l.x, l.y]));
    expect(grid30.every((l) => g30.points[l.index]!.x === l.x && g30.points[l.index]!.y === l.y)).toBe(true);
    fc.assert(
      fc.property(anyMap, fc.constantFrom(...levels), (a, outer) => {
        const tdp30: Array<ProbabilityLevel | null> = g30.points.map(() => outer);
        for (const i of g30.blindSpotIndices) tdp30[i] = null;
        grid30.forEach(({ index }, k) => {
          tdp30[index] = a[k]!;
        });
        const s30 = cigtsScore(tdp30, Pattern.P30_2);
        expect(s30.applicable && s30.score).toBeCloseTo(score(a), 12);
      }),
      { numRuns: 50 },
    );
  });

  it("is not applicable off 24-2 and 30-2, or with a staging location not measured", () => {
    expect(cigtsScore(new Array(68).fill(1), Pattern.P10_2)).toEqual({ applicable: false, reason: "pattern" });
    expect(cigtsScore(new Array(59).fill(1), Pattern.G)).toEqual({ applicable: false, reason: "pattern" });
    expect(cigtsScore(new Array(28).fill(1), Pattern.S28)).toEqual({ applicable: false, reason: "pattern" });
    const holed = map24(new Array(52).fill(1));
    holed[grid[7]!.index] = null;
    expect(cigtsScore(holed, Pattern.P24_2)).toEqual({ applicable: false, reason: "missing-locations" });
  });
});
