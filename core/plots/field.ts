// The frame every visual-field plot shares: pattern locations placed in a box, the fixation cross with degree ticks and
// the seeds' degree label. Values arrive indexed like the pattern's points (right-eye order, see core/analytics/patterns);
// a left eye is drawn mirrored, as the patient sees it.

import { getPattern, pointsForEye, type PatternGeometry } from "../analytics/patterns.ts";
import type { Eye, Pattern } from "../model/enums.ts";
import { degreeLabel } from "./axes.ts";
import { text, type GroupNode, type Message, type Scene, type SceneNode } from "./scene.ts";

export interface FieldBox {
  readonly pattern: Pattern;
  readonly eye: Eye;
  /** Scene size in px (points on paper). */
  readonly width: number;
  readonly height: number;
  /** Draw the title line at the top (default true). */
  readonly showTitle?: boolean;
}

export interface FieldFrame {
  readonly geometry: PatternGeometry;
  /** Pixel position of each location, in the pattern's index order. */
  readonly at: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly centre: { readonly x: number; readonly y: number };
  readonly pxPerDegree: number;
  /** Typical spacing between neighbouring locations in px (median nearest-neighbour distance). */
  readonly cell: number;
  /** Font size for a value at a location. */
  readonly valueSize: number;
  /** Per location: the side of the widest square mark that misses every neighbour, in px (capped at `cell`), so the
   * crowded centre of G gets smaller marks. */
  readonly localCell: readonly number[];
  /** Per location: the font size that fits its neighbourhood (at most valueSize, at least 7). */
  readonly sizeAt: readonly number[];
  readonly degreeLabel: 10 | 30 | 60;
  /** Half-extent of the axes in degrees. */
  readonly extentX: number;
  readonly extentY: number;
  readonly toPx: (xDeg: number, yDeg: number) => { x: number; y: number };
}

export const titleHeight = 22;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 1 : s[Math.floor(s.length / 2)]!;
};

/** Distance from each location to its nearest neighbour, in degrees. */
export function nearestDistances(points: ReadonlyArray<{ x: number; y: number }>): number[] {
  return points.map((p, i) => points.reduce((best, q, j) => (i === j ? best : Math.min(best, Math.hypot(p.x - q.x, p.y - q.y))), Infinity));
}

/** Chebyshev distance (max of |dx|, |dy|) from each location to its nearest neighbour: the widest square mark that
 * never overlaps a neighbour's. */
export function nearestSquareRoom(points: ReadonlyArray<{ x: number; y: number }>): number[] {
  return points.map((p, i) =>
    points.reduce((best, q, j) => (i === j ? best : Math.min(best, Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y)))), Infinity),
  );
}

/** Median distance from each location to its nearest neighbour, in degrees. */
export function typicalSpacing(points: ReadonlyArray<{ x: number; y: number }>): number {
  return median(nearestDistances(points));
}

const fontFor = (px: number) => Math.max(7, Math.min(16, Math.round(px * 0.42 * 2) / 2));

interface Layout {
  readonly geometry: PatternGeometry;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly spacing: number;
  readonly maxX: number;
  readonly maxY: number;
  /** nearestSquareRoom of the points, in degrees. */
  readonly room: readonly number[];
}

// The degree-space layout depends on the pattern and eye only; its neighbour searches are quadratic in the locations
// and a result page lays out a dozen fields, so each pattern and eye is worked out once.
const layouts = new Map<string, Layout>();

function layoutOf(pattern: Pattern, eye: Eye): Layout {
  const key = `${pattern}/${eye}`;
  const hit = layouts.get(key);
  if (hit) return hit;
  const geometry = getPattern(pattern);
  const points = pointsForEye(geometry, eye);
  const layout: Layout = {
    geometry,
    points,
    spacing: typicalSpacing(points),
    maxX: Math.max(...points.map((p) => Math.abs(p.x))),
    maxY: Math.max(...points.map((p) => Math.abs(p.y))),
    room: nearestSquareRoom(points),
  };
  layouts.set(key, layout);
  return layout;
}

/** Lays out a pattern in the box: square degrees, centred, room for the degree labels. */
export function fieldFrame(box: FieldBox): FieldFrame {
  const { geometry, points, spacing, maxX, maxY, room } = layoutOf(box.pattern, box.eye);
  const label = degreeLabel(box.pattern);
  const extentX = Math.max(label, maxX + spacing / 2);
  const extentY = Math.max(label, maxY + spacing / 2);
  const top = box.showTitle === false ? 0 : titleHeight;
  // Room on every side for the degree label that sits beyond the end of the horizontal axis.
  const pad = Math.max(22, Math.min(box.width, box.height) * 0.07);
  const pxPerDegree = Math.min((box.width - 2 * pad) / (2 * extentX), (box.height - top - 2 * pad) / (2 * extentY));
  const centre = { x: box.width / 2, y: top + (box.height - top) / 2 };
  const toPx = (xDeg: number, yDeg: number) => ({ x: centre.x + xDeg * pxPerDegree, y: centre.y - yDeg * pxPerDegree });
  const cell = spacing * pxPerDegree;
  const valueSize = fontFor(cell);
  const localCell = room.map((d) => Math.min(d, spacing) * pxPerDegree);
  return {
    geometry,
    at: points.map((p) => toPx(p.x, p.y)),
    centre,
    pxPerDegree,
    cell,
    valueSize,
    localCell,
    sizeAt: localCell.map((c) => Math.min(valueSize, fontFor(c))),
    degreeLabel: label,
    extentX,
    extentY,
    toPx,
  };
}

/** The fixation cross with a tick every 10 degrees (2 on 10-2) and the degree label at the right and top ends. */
export function fieldAxes(frame: FieldFrame): GroupNode {
  const { centre, pxPerDegree: k, extentX, extentY, degreeLabel: label } = frame;
  const step = label === 10 ? 2 : 10;
  const tick = 3;
  const nodes: SceneNode[] = [
    {
      kind: "line",
      x1: centre.x - extentX * k,
      y1: centre.y,
      x2: centre.x + extentX * k,
      y2: centre.y,
      stroke: "plot-axis",
      strokeWidth: 0.75,
    },
    {
      kind: "line",
      x1: centre.x,
      y1: centre.y - extentY * k,
      x2: centre.x,
      y2: centre.y + extentY * k,
      stroke: "plot-axis",
      strokeWidth: 0.75,
    },
  ];
  for (let d = step; d <= extentX + 1e-9; d += step)
    for (const s of [-1, 1])
      nodes.push({
        kind: "line",
        x1: centre.x + s * d * k,
        y1: centre.y - tick,
        x2: centre.x + s * d * k,
        y2: centre.y + tick,
        stroke: "plot-axis",
        strokeWidth: 0.75,
      });
  for (let d = step; d <= extentY + 1e-9; d += step)
    for (const s of [-1, 1])
      nodes.push({
        kind: "line",
        x1: centre.x - tick,
        y1: centre.y + s * d * k,
        x2: centre.x + tick,
        y2: centre.y + s * d * k,
        stroke: "plot-axis",
        strokeWidth: 0.75,
      });
  const size = Math.max(8, Math.min(11, frame.valueSize - 1));
  const labelText = `${label}°`;
  nodes.push(
    // Beside the tick of the label's degree, just outside the values: right of it on the horizontal axis, above it on the vertical.
    text(centre.x + label * k + 2, centre.y + tick + 1, labelText, {
      size,
      anchor: "start",
      baseline: "top",
      fill: "plot-ink-muted",
      tabular: true,
    }),
    text(centre.x + tick + 2, centre.y - label * k - 1, labelText, {
      size,
      anchor: "start",
      baseline: "bottom",
      fill: "plot-ink-muted",
      tabular: true,
    }),
  );
  return { kind: "group", x: 0, y: 0, role: "axes", children: nodes };
}

/** The scene's title line (omitted when the box asks for none). */
export function titleNodes(title: Message, width: number, show: boolean | undefined): SceneNode[] {
  if (show === false) return [];
  // Translations run longer than English (German, Dutch, Portuguese): the title fits the plot's width, 4 px a side.
  return [text(width / 2, 4, title, { size: 13, weight: "bold", baseline: "top", maxWidth: width - 8 })];
}

/** A complete field scene: title, axes, then the marks at the locations. */
export function fieldScene(
  plot: string,
  title: Message,
  box: FieldBox,
  frame: FieldFrame,
  marks: readonly SceneNode[],
  extra: readonly SceneNode[] = [],
): Scene {
  return {
    plot,
    title,
    width: box.width,
    height: box.height,
    background: "plot-background",
    nodes: [
      ...titleNodes(title, box.width, box.showTitle),
      fieldAxes(frame),
      { kind: "group", x: 0, y: 0, role: "locations", children: marks },
      ...extra,
    ],
  };
}

/** Values arrive one per location; a wrong count is a caller's bug that would silently misplace numbers. */
export function checkLength(what: string, values: ArrayLike<unknown>, geometry: PatternGeometry): void {
  if (values.length !== geometry.points.length)
    throw new Error(`${what}: ${values.length} values for ${geometry.label}, which has ${geometry.points.length} locations`);
}
