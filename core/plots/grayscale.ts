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

/** Locations used by the interpolation (inverse-distance weighting over this many nearest neighbours). */
const neighbours = 4;

/**
 * Threshold at (x, y) degrees by inverse-distance weighting (power 2) of the nearest measured locations; exactly the
 * measured value at a location. Undefined when (x, y) lies outside the field: outside the convex hull of the locations
 * (when given) and farther from every location i than reach[i] (the margin of half a cell around the outer locations).
 */
export function interpolateThreshold(
  points: ReadonlyArray<{ x: number; y: number }>,
  values: LocationValues,
  x: number,
  y: number,
  reach: readonly number[],
  hull?: ReadonlyArray<{ x: number; y: number }>,
): number | undefined {
  const near: Array<{ d: number; v: number }> = [];
  let inside = hull ? insideConvex(hull, x, y) : false;
  points.forEach((p, i) => {
    const v = values[i];
    if (v === null || v === undefined) return;
    const d = Math.hypot(p.x - x, p.y - y);
    if (d <= reach[i]!) inside = true;
    near.push({ d, v });
  });
  near.sort((a, b) => a.d - b.d);
  const first = near[0];
  if (!first || !inside) return undefined;
  if (first.d < 1e-9) return first.v;
  let sw = 0;
  let sv = 0;
  for (const { d, v } of near.slice(0, neighbours)) {
    const w = 1 / (d * d);
    sw += w;
    sv += w * v;
  }
  return sv / sw;
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
  const reach = points.map(() => 0.72 * spacing);
  // The tested field: the hull of the measured locations, so gaps in a sparse pattern (G around the blind spot) fill in.
  const hull = convexHull(points.filter((_, i) => input.thresholds[i] !== null));
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
        width: (end - run.start) * cellPx + 0.3,
        height: cellPx + 0.3,
        fill: greyBands[run.band]!.colour,
      });
      run = undefined;
    };
    for (let i = -nx; i < nx; i++) {
      const v = interpolateThreshold(points, input.thresholds, (i + 0.5) * step, yDeg, reach, hull);
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
