// Octopus-style greyscale: the thresholds interpolated over the tested field and drawn in the seeds' eight grey bands
// (1-5 ... 36-40 dB; black below 1 dB). The field is sampled on a grid of cells a quarter of the location spacing wide;
// runs of equal band along a row become one rectangle, which keeps the scene small.

import { greyBand, greyBands } from "./bands.ts";
import { checkLength, fieldAxes, fieldFrame, titleNodes, typicalSpacing, type FieldBox } from "./field.ts";
import type { LocationValues } from "./octopus.ts";
import { pointsForEye } from "../analytics/patterns.ts";
import { message, type RectNode, type Scene } from "./scene.ts";

/** The convex hull of the points (Andrew's monotone chain), counter-clockwise. */
export function convexHull(points: ReadonlyArray<{ x: number; y: number }>): Array<{ x: number; y: number }> {
  const ps = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  const cross = (o: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }) =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (list: typeof ps) => {
    const h: typeof ps = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(ps), ...half([...ps].reverse())];
}

/** Whether (x, y) lies inside or on a counter-clockwise convex polygon. */
export function insideConvex(hull: ReadonlyArray<{ x: number; y: number }>, x: number, y: number): boolean {
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    if ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) < -1e-9) return false;
  }
  return hull.length >= 3;
}

/** Distance from (x, y) to a counter-clockwise convex polygon (0 inside). */
export function distanceToConvex(hull: ReadonlyArray<{ x: number; y: number }>, x: number, y: number): number {
  if (insideConvex(hull, x, y)) return 0;
  let best = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2));
    const ex = x - (a.x + t * dx);
    const ey = y - (a.y + t * dy);
    best = Math.min(best, ex * ex + ey * ey);
  }
  return Math.sqrt(best);
}

/** Locations used by the interpolation (inverse-distance weighting over this many nearest neighbours). */
const neighbours = 4;

/**
 * The tested field: the convex hull of the measured locations widened by `margin` degrees (so gaps in a sparse
 * pattern, like G around the blind spot, fill in, and the edge is smooth).
 */
export function testedField(points: ReadonlyArray<{ x: number; y: number }>, margin: number): (x: number, y: number) => boolean {
  const hull = convexHull(points);
  return (x, y) => distanceToConvex(hull, x, y) <= margin;
}

/**
 * Threshold at (x, y) degrees by inverse-distance weighting (power 2) of the `neighbours` nearest measured locations;
 * exactly the measured value at a location. Undefined outside the field (`inField`) or without any measured value.
 */
export function thresholdInterpolator(
  points: ReadonlyArray<{ x: number; y: number }>,
  values: LocationValues,
  inField: (x: number, y: number) => boolean = () => true,
): (x: number, y: number) => number | undefined {
  const measured = points.flatMap((p, i) => {
    const v = values[i];
    return v === null || v === undefined ? [] : [{ x: p.x, y: p.y, v }];
  });
  const xs = Float64Array.from(measured, (m) => m.x);
  const ys = Float64Array.from(measured, (m) => m.y);
  const vs = Float64Array.from(measured, (m) => m.v);
  const bestD = new Float64Array(neighbours);
  const bestV = new Float64Array(neighbours);
  return (x, y) => {
    if (xs.length === 0 || !inField(x, y)) return undefined;
    // Insertion into a short sorted list of squared distances: no allocation per call.
    bestD.fill(Infinity);
    for (let i = 0; i < xs.length; i++) {
      const d = (xs[i]! - x) ** 2 + (ys[i]! - y) ** 2;
      if (d >= bestD[neighbours - 1]!) continue;
      let k = neighbours - 1;
      while (k > 0 && bestD[k - 1]! > d) {
        bestD[k] = bestD[k - 1]!;
        bestV[k] = bestV[k - 1]!;
        k--;
      }
      bestD[k] = d;
      bestV[k] = vs[i]!;
    }
    if (bestD[0]! < 1e-18) return bestV[0];
    let sw = 0;
    let sv = 0;
    for (let k = 0; k < neighbours && bestD[k]! < Infinity; k++) {
      const w = 1 / bestD[k]!; // weights 1 / distance^2
      sw += w;
      sv += w * bestV[k]!;
    }
    return sv / sw;
  };
}

/** One-off form of thresholdInterpolator. */
export function interpolateThreshold(
  points: ReadonlyArray<{ x: number; y: number }>,
  values: LocationValues,
  x: number,
  y: number,
  inField?: (x: number, y: number) => boolean,
): number | undefined {
  return thresholdInterpolator(points, values, inField)(x, y);
}

export interface GrayscaleInput extends FieldBox {
  readonly thresholds: LocationValues;
}

export function grayscaleScene(input: GrayscaleInput): Scene {
  const frame = fieldFrame(input);
  checkLength("thresholds", input.thresholds, frame.geometry);
  const points = pointsForEye(frame.geometry, input.eye);
  const spacing = typicalSpacing(points);
  const step = spacing / 4;
  // Half a location spacing beyond the outer locations, as their cells reach on a printout.
  const inField = testedField(
    points.filter((_, i) => input.thresholds[i] !== null),
    spacing / 2,
  );
  const at = thresholdInterpolator(points, input.thresholds, inField);
  const cells: RectNode[] = [];
  const cellPx = step * frame.pxPerDegree;
  const nx = Math.ceil(frame.extentX / step);
  const ny = Math.ceil(frame.extentY / step);
  for (let j = -ny; j < ny; j++) {
    const yDeg = (j + 0.5) * step;
    let run: { start: number; band: number } | undefined;
    const flush = (end: number) => {
      if (!run) return;
      const left = frame.toPx(run.start * step, yDeg);
      cells.push({
        kind: "rect",
        x: left.x,
        y: left.y - cellPx / 2,
        // A hair of overlap hides anti-aliasing seams between neighbouring cells.
        width: (end - run.start) * cellPx + 0.6,
        height: cellPx + 0.6,
        fill: greyBands[run.band]!.colour,
      });
      run = undefined;
    };
    for (let i = -nx; i < nx; i++) {
      const v = at((i + 0.5) * step, yDeg);
      const band = v === undefined ? -1 : greyBand(v);
      if (run && run.band !== band) flush(i);
      if (!run && band >= 0) run = { start: i, band };
    }
    flush(nx);
  }
  const title = message("plots.octopus.grayscale", "Greyscale");
  return {
    plot: "octopus.grayscale",
    title,
    width: input.width,
    height: input.height,
    background: "plot-background",
    nodes: [
      ...titleNodes(title, input.width, input.showTitle),
      { kind: "group", x: 0, y: 0, role: "greyscale", children: cells },
      fieldAxes(frame),
    ],
  };
}
