import { describe, expect, it } from "vitest";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { greyBands } from "../../core/plots/bands.ts";
import { bebieCurve, bebieScene } from "../../core/plots/bebie.ts";
import { convexHull, grayscaleScene, insideConvex, interpolateThreshold, testedField } from "../../core/plots/grayscale.ts";
import { fieldFrame } from "../../core/plots/field.ts";
import { group, ofKind } from "./helpers.ts";
import { sampleDefects, sampleThresholds } from "./fixtures.ts";

const box = { pattern: Pattern.P24_2, eye: Eye.Right, width: 300, height: 300 } as const;

describe("greyscale", () => {
  const points = getPattern(Pattern.P24_2).points;
  const values = sampleThresholds();

  it("the interpolated field equals the measured value at each location", () => {
    points.forEach((p, i) => expect(interpolateThreshold(points, values, p.x, p.y)).toBe(values[i]));
  });

  it("between locations it stays within the neighbours' range; outside the field it is empty", () => {
    const v = interpolateThreshold(points, values, 0, 0)!;
    const near = points.flatMap((p, i) => (Math.hypot(p.x, p.y) < 5 ? [values[i]!] : []));
    expect(v).toBeGreaterThanOrEqual(Math.min(...near));
    expect(v).toBeLessThanOrEqual(Math.max(...near));
    expect(interpolateThreshold(points, values, 40, 40, testedField(points, 3))).toBeUndefined();
    expect(interpolateThreshold(points, values, -29, 0, testedField(points, 3))).toBeDefined();
  });

  it("the convex hull contains every location", () => {
    const hull = convexHull(points);
    for (const p of points) expect(insideConvex(hull, p.x, p.y)).toBe(true);
    expect(insideConvex(hull, 0, 40)).toBe(false);
  });

  it("draws only grey-band colours, and a uniform field in one band", () => {
    const scene = grayscaleScene({ ...box, thresholds: points.map(() => 33) });
    const cells = ofKind(group(scene, "greyscale"), "rect");
    expect(cells.length).toBeGreaterThan(10);
    expect(new Set(cells.map((c) => c.fill))).toEqual(new Set([greyBands[7]!.colour]));
  });

  it("a deep defect shows the darkest bands, normal areas light ones", () => {
    const fills = new Set(ofKind(group(grayscaleScene({ ...box, thresholds: values }), "greyscale"), "rect").map((c) => c.fill));
    expect(fills.has("grey-band-0")).toBe(true);
    expect(fills.has("grey-band-6")).toBe(true);
  });

  it("a left eye's greyscale is the mirror image of the right eye's", () => {
    const right = ofKind(group(grayscaleScene({ ...box, thresholds: values }), "greyscale"), "rect");
    const left = ofKind(group(grayscaleScene({ ...box, eye: Eye.Left, thresholds: values }), "greyscale"), "rect");
    const area = (cells: typeof right, fill: string, side: (x: number) => boolean) =>
      cells.filter((c) => c.fill === fill && side(c.x + c.width / 2)).reduce((a, c) => a + c.width * c.height, 0);
    // The blind spot (black) is right of fixation for a right eye, left of it for a left eye.
    expect(area(right, "grey-band-0", (x) => x > 150)).toBeGreaterThan(0);
    expect(area(left, "grey-band-0", (x) => x < 150)).toBeGreaterThan(0);
    expect(pointsForEye(getPattern(Pattern.P24_2), Eye.Left)[25]!.x).toBe(-15);
  });

  it("G fills its whole field (no holes around the blind spot)", () => {
    const g = getPattern(Pattern.G);
    const scene = grayscaleScene({ ...box, pattern: Pattern.G, thresholds: g.points.map(() => 28) });
    const cells = ofKind(group(scene, "greyscale"), "rect");
    // A uniform field is one band, so each row across the convex field is one run; a hole would split a row in two.
    const frame = fieldFrame({ ...box, pattern: Pattern.G });
    const rows = new Map<number, number>();
    for (const c of cells) {
      const yDeg = (frame.centre.y - (c.y + c.height / 2)) / frame.pxPerDegree;
      if (Math.abs(yDeg) < 40) rows.set(Math.round(c.y * 10), (rows.get(Math.round(c.y * 10)) ?? 0) + 1);
    }
    expect(rows.size).toBeGreaterThan(20);
    expect([...rows.values()].every((n) => n === 1)).toBe(true);
  });
});

describe("Bebie curve", () => {
  it("is the defects sorted from the best location to the worst, blanks left out", () => {
    expect(bebieCurve([3, null, -1, 10, 2])).toEqual([-1, 2, 3, 10]);
  });

  it("draws the curve with one vertex per ranked location and the normal band when given", () => {
    const defects = sampleDefects();
    const band = { lower: defects.map(() => -2), upper: defects.map((_, i) => 2 + i / 10) };
    const scene = bebieScene({ defects, normalBand: band, width: 360, height: 260 });
    const curve = ofKind(group(scene, "curve"), "polyline")[0]!;
    expect(curve.points).toHaveLength(defects.length * 2);
    // Defects grow downward: the worst (last) vertex is lowest on screen.
    expect(curve.points[curve.points.length - 1]).toBeGreaterThan(curve.points[1]!);
    expect(ofKind(group(scene, "normal-band"), "polyline")[0]!.closed).toBe(true);
    expect(() => group(bebieScene({ defects, width: 360, height: 260 }), "normal-band")).toThrow();
  });
});
