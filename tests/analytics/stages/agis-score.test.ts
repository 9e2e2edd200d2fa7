import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../../core/model/enums.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { agisCriterion, agisScore, agisSector } from "../../../core/analytics/stages/agis-score.ts";
import { grid24, neighbours } from "../../../core/analytics/stages/staging-grid.ts";

const grid = grid24(Pattern.P24_2)!;
const size24 = getPattern(Pattern.P24_2).points.length;
const at = new Map(grid.map((p, k) => [`${p.x},${p.y}`, k]));
const k = (x: number, y: number) => at.get(`${x},${y}`)!;

/** A 24-2 TD map from 52 values in 24-2 order. */
function td24(values52: readonly number[]): Array<number | null> {
  const td: Array<number | null> = new Array(size24).fill(null);
  grid.forEach(({ index }, j) => {
    td[index] = values52[j]!;
  });
  return td;
}
function score(values52: readonly number[]) {
  const out = agisScore(td24(values52), Pattern.P24_2);
  if (!out.applicable) throw new Error(out.reason);
  return out;
}
const normal = () => new Array<number>(52).fill(0);
const anyField = fc.array(fc.double({ min: -35, max: 5, noNaN: true }), { minLength: 52, maxLength: 52 });

describe("AGIS score (Gaasterland et al. 1994, AGIS 2)", () => {
  it("'a location is depressed when its TD is at or below the criterion of Fig. 1' (-5 to -9 dB; stricter above)", () => {
    expect(agisCriterion({ x: -9, y: 21 })).toBe(-9);
    expect(agisCriterion({ x: -3, y: 15 })).toBe(-8);
    expect(agisCriterion({ x: -3, y: 3 })).toBe(-6);
    expect(agisCriterion({ x: -3, y: -3 })).toBe(-5);
    expect(agisCriterion({ x: -27, y: 3 })).toBe(-9);
    expect(agisCriterion({ x: -21, y: -3 })).toBe(-7);
    expect(agisCriterion({ x: 21, y: -9 })).toBe(-7);
    expect(() => agisCriterion({ x: 15, y: 3 })).toThrow();
    const field = normal();
    field[k(-3, -3)] = -5;
    expect(score(field).depressed).toEqual([grid[k(-3, -3)]!.index]);
    field[k(-3, -3)] = -4.9;
    expect(score(field).depressed).toEqual([]);
  });

  it("sectors and neighbours are AGIS 2 Fig. 1's (examples as vfprogression lists them, 1-based 54 numbering)", () => {
    const lists = neighbours(grid, agisSector);
    const of = (n: number) => lists[grid.findIndex((p) => p.index === n - 1)]!.map((j) => grid[j]!.index + 1).sort((a, b) => a - b);
    expect(grid.filter((p) => agisSector(p) === "nasal").map((p) => p.index + 1)).toEqual([11, 19, 20, 28, 29, 37]);
    expect(of(5)).toEqual([1, 6, 12, 13]);
    expect(of(11)).toEqual([19, 20]);
    expect(of(19)).toEqual([11, 20, 28, 29]);
    expect(of(17)).toEqual([9, 10, 16, 18, 25, 27]);
    expect(of(36)).toEqual([43, 44]);
  });

  it("a healthy field scores 0; TD -30 everywhere scores 20 (nasal 2, each hemifield 4 + 5)", () => {
    expect(score(normal()).score).toBe(0);
    expect(score(new Array(52).fill(-30))).toMatchObject({ score: 20, nasal: 2, upper: 9, lower: 9 });
  });

  it("'nasal step': depressed nasal locations in one hemifield score 1; 4 of the 6 at -12 dB or below add 1", () => {
    const step = normal();
    step[k(-21, 3)] = -10;
    expect(score(step)).toMatchObject({ score: 1, nasal: 1 });
    step[k(-27, 3)] = -10;
    step[k(-21, 9)] = -10;
    expect(score(step).nasal).toBe(1);
    for (const [x, y] of [
      [-21, 3],
      [-27, 3],
      [-21, 9],
      [-27, -3],
    ] as const)
      step[k(x, y)] = -13;
    expect(score(step).nasal).toBe(2);
  });

  it("the rule as written is not monotone: a small nasal defect mirrored across the midline is no step and scores 0", () => {
    const field = normal();
    field[k(-21, 9)] = -10;
    expect(score(field).nasal).toBe(1);
    field[k(-21, -9)] = -10;
    expect(score(field).nasal).toBe(0);
    field[k(-21, 3)] = -10;
    field[k(-21, -3)] = -10; // with (-21, +-3) the four join across the midline: a cluster of 4, a nasal defect
    expect(score(field).nasal).toBe(1);
  });

  it("hemifield: clusters of 3 or more count (3, 6, 13, 20 locations: 1 each), and each depth reached by half of them", () => {
    const field = normal();
    field[k(3, 9)] = -10;
    field[k(9, 9)] = -10;
    expect(score(field).upper).toBe(0); // a pair is no cluster
    field[k(3, 15)] = -10;
    expect(score(field).upper).toBe(1);
    field[k(3, 15)] = -12;
    field[k(9, 9)] = -12;
    expect(score(field).upper).toBe(2); // 2 of 3 at -12: half reached
    field[k(-3, -3)] = -30; // a lone point below: no cluster
    expect(score(field)).toMatchObject({ upper: 2, lower: 0, score: 2 });
  });

  it("the rule as written is not monotone: shallow locations joining a deep cluster can halve it below a depth", () => {
    const field = normal();
    for (const [x, y] of [
      [3, 9],
      [9, 9],
      [3, 15],
    ] as const)
      field[k(x, y)] = -30;
    const deep = score(field).upper;
    expect(deep).toBe(1 + 5);
    for (const [x, y] of [
      [3, 3],
      [9, 3],
      [-3, 9],
      [-3, 15],
    ] as const)
      field[k(x, y)] = -10;
    expect(score(field).upper).toBe(2 + 0);
  });

  it("property: deepening locations that are already depressed never lowers the score", () => {
    fc.assert(
      fc.property(anyField, fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 52, maxLength: 52 }), (a, extra) => {
        const before = score(a);
        const down = new Set(before.depressed);
        const deeper = a.map((v, j) => (down.has(grid[j]!.index) ? v - extra[j]! : v));
        expect(score(deeper).score).toBeGreaterThanOrEqual(before.score);
      }),
    );
  });

  it("property: swapping the hemifields gives the same score when no location is within 1 dB of the (asymmetric) criteria", () => {
    const mirror = grid.map((p) => k(p.x, -p.y));
    const clear = fc.array(fc.oneof(fc.double({ min: -4, max: 5, noNaN: true }), fc.double({ min: -35, max: -10, noNaN: true })), {
      minLength: 52,
      maxLength: 52,
    });
    fc.assert(
      fc.property(clear, (a) => {
        const flipped = score(mirror.map((j) => a[j]!));
        const base = score(a);
        expect(flipped).toMatchObject({ score: base.score, nasal: base.nasal, upper: base.lower, lower: base.upper });
      }),
    );
  });

  it("property: the score lies in 0-20, as the sum of nasal (0-2) and both hemifields (0-9)", () => {
    fc.assert(
      fc.property(anyField, (a) => {
        const s = score(a);
        expect(s.score).toBe(s.nasal + s.upper + s.lower);
        expect(s.nasal).toBeLessThanOrEqual(2);
        expect(Math.max(s.upper, s.lower)).toBeLessThanOrEqual(9);
        expect(s.score).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("on 30-2 it reads the 24-2 locations the grid contains; not applicable elsewhere or with a location missing", () => {
    const g30 = getPattern(Pattern.P30_2);
    const td30: Array<number | null> = g30.points.map(() => -30);
    for (const i of g30.blindSpotIndices) td30[i] = null;
    for (const { index } of grid24(Pattern.P30_2)!) td30[index] = 0;
    expect(agisScore(td30, Pattern.P30_2)).toMatchObject({ applicable: true, score: 0 });
    expect(agisScore(new Array(68).fill(0), Pattern.P10_2)).toEqual({ applicable: false, reason: "pattern" });
    expect(agisScore(new Array(120).fill(0), Pattern.Esterman)).toEqual({ applicable: false, reason: "pattern" });
    const holed = td24(normal());
    holed[grid[3]!.index] = null;
    expect(agisScore(holed, Pattern.P24_2)).toEqual({ applicable: false, reason: "missing-locations" });
  });
});
