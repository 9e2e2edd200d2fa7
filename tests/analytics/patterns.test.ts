import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { getPattern, pointsForEye, statisticalIndices } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";

const locmaps = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/visualfields/locmaps.json"), "utf8")).maps as Record<
  string,
  { n: number; x: number[]; y: number[]; bs0: number[] }
>;

describe("patterns equal visualFields' location maps (locmaps.json)", () => {
  const cases: Array<[Pattern, string]> = [
    [Pattern.P24_2, "p24d2"],
    [Pattern.P30_2, "p30d2"],
    [Pattern.P10_2, "p10d2"],
    [Pattern.G, "g1"],
  ];
  for (const [pattern, map] of cases) {
    it(`${map}: coordinates, order and blind spots`, () => {
      const g = getPattern(pattern);
      const m = locmaps[map]!;
      expect(g.points.length).toBe(m.n);
      expect(g.points.map((p) => p.x)).toEqual(m.x);
      expect(g.points.map((p) => p.y)).toEqual(m.y);
      expect([...g.blindSpotIndices]).toEqual(m.bs0);
    });
  }
});

describe("pattern definitions", () => {
  const all = [Pattern.P24_2, Pattern.P30_2, Pattern.P10_2, Pattern.G, Pattern.S28, Pattern.C40, Pattern.Esterman];
  it("every pattern is in display order (descending y, then ascending x) without duplicates", () => {
    for (const p of all) {
      const pts = getPattern(p).points;
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1]!,
          b = pts[i]!;
        expect(a.y > b.y || (a.y === b.y && a.x < b.x)).toBe(true);
      }
    }
  });
  it("location counts: S28 28, C40 40, Esterman 120 (binocular)", () => {
    expect(getPattern(Pattern.S28).points).toHaveLength(28);
    expect(getPattern(Pattern.C40).points).toHaveLength(40);
    const e = getPattern(Pattern.Esterman);
    expect(e.points).toHaveLength(120);
    expect(e.binocular).toBe(true);
  });
  it("Esterman is symmetric in x and spans 75/76 degrees horizontally", () => {
    const pts = getPattern(Pattern.Esterman).points;
    const key = (x: number, y: number) => `${x},${y}`;
    const set = new Set(pts.map((p) => key(p.x, p.y)));
    for (const p of pts) expect(set.has(key(-p.x, p.y))).toBe(true);
    expect(Math.max(...pts.map((p) => p.x))).toBe(76);
  });
  it("S28 and C40 avoid the blind spot and lie on the 24-2 / 30-2 grids", () => {
    const on = (outer: Pattern, inner: Pattern) => {
      const set = new Set(getPattern(outer).points.map((p) => `${p.x},${p.y}`));
      for (const p of getPattern(inner).points) {
        expect(set.has(`${p.x},${p.y}`)).toBe(true);
        expect(p.x === 15 && Math.abs(p.y) === 3).toBe(false);
      }
    };
    on(Pattern.P24_2, Pattern.S28);
    on(Pattern.P30_2, Pattern.C40);
  });
  it("left eyes mirror x in the same index order; right and binocular do not", () => {
    const g = getPattern(Pattern.P24_2);
    const left = pointsForEye(g, Eye.Left);
    expect(left[25]).toEqual({ x: -15, y: 3 });
    expect(pointsForEye(g, Eye.Right)).toBe(g.points);
    const e = getPattern(Pattern.Esterman);
    expect(pointsForEye(e, Eye.Left)).toBe(e.points);
  });
  it("statistical indices drop the blind spots (52 on 24-2)", () => {
    expect(statisticalIndices(getPattern(Pattern.P24_2))).toHaveLength(52);
  });
  it("Undefined has no geometry", () => {
    expect(() => getPattern(Pattern.Undefined)).toThrow(/no location map/);
  });
});
