// The frame every visual-field plot shares: pattern locations placed in a box, the fixation cross with degree ticks and
// the seeds' degree label. Values arrive indexed like the pattern's points (right-eye order, see core/analytics/patterns);
// a left eye is drawn mirrored, as the patient sees it.

import { getPattern, pointsForEye, type PatternGeometry } from "../analytics/patterns.ts";
import type { Eye, Pattern } from "../model/enums.ts";
import { degreeLabel } from "./axes.ts";
import { resolveText } from "./message.ts";
import { text, type GroupNode, type LineNode, type Message, type Scene, type SceneNode } from "./scene.ts";
import { capHeight, textInkBox, type TextBox } from "./text-metrics.ts";

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
  /**
   * Per location: the font size at which its label (up to `labelEm` wide) keeps clear of every neighbour's label at its
   * size (at most valueSize): labels are boxes, and two boxes are apart when they are apart across or up and down.
   */
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

/** Widest value label of a plain field plot in em: "-12" (1.63 em), "<0" (1.47 em). */
export const valueLabelEm = 1.7;
/** Clear space between two labels, and between a label and an axis line, in px. */
export const labelGap = 1;
/** The smallest value label: below it a dense centre (G on a print cell) would need a larger cell, not a smaller font. */
export const minValueSize = 3.5;

/**
 * The largest font size for each location at which no two labels' boxes (labelEm wide, cap height high, centred on
 * their locations) come within labelGap of each other: per neighbour, apart across (|dx| >= labelEm * size + gap) or
 * up and down (|dy| >= capHeight * size + gap). Both of a pair get at most the pair's bound, so each pair is apart.
 */
export function labelSizes(at: ReadonlyArray<{ x: number; y: number }>, cap: number, labelEm: number): number[] {
  const height = capHeight + 0.05; // the ink box with a little of the baseline's overshoot
  return at.map((p, i) => {
    let size = cap;
    for (let j = 0; j < at.length; j++) {
      if (i === j) continue;
      const dx = Math.abs(at[j]!.x - p.x),
        dy = Math.abs(at[j]!.y - p.y);
      size = Math.min(size, Math.max((dx - labelGap) / labelEm, (dy - labelGap) / height));
    }
    return Math.max(minValueSize, Math.floor(size * 4) / 4);
  });
}

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

/**
 * Lays out a pattern in the box: square degrees, centred, room for the degree labels. `labelEm` is the widest label
 * the plot writes at a location, in em (see valueLabelEm), which decides the font size each location can have.
 */
export function fieldFrame(box: FieldBox, labelEm = valueLabelEm): FieldFrame {
  const { geometry, points, spacing, maxX, maxY, room } = layoutOf(box.pattern, box.eye);
  const label = degreeLabel(box.pattern);
  const extentX = Math.max(label, maxX + spacing / 2);
  const extentY = Math.max(label, maxY + spacing / 2);
  const top = box.showTitle === false ? 0 : titleHeight;
  // Room on every side for the degree label that sits beyond the end of the horizontal axis.
  // Across: the horizontal degree label ("30°", about 16 px) beyond the axis' end; up and down only the top label's
  // overhang. No more, so a small print cell gives the dense centre of G every pixel it can.
  const padX = Math.max(18, Math.min(box.width, box.height) * 0.06);
  const padY = Math.max(10, Math.min(box.width, box.height) * 0.04);
  const pxPerDegree = Math.min((box.width - 2 * padX) / (2 * extentX), (box.height - top - 2 * padY) / (2 * extentY));
  const centre = { x: box.width / 2, y: top + (box.height - top) / 2 };
  const toPx = (xDeg: number, yDeg: number) => ({ x: centre.x + xDeg * pxPerDegree, y: centre.y - yDeg * pxPerDegree });
  const cell = spacing * pxPerDegree;
  const valueSize = fontFor(cell);
  const localCell = room.map((d) => Math.min(d, spacing) * pxPerDegree);
  const at = points.map((p) => toPx(p.x, p.y));
  return {
    geometry,
    at,
    centre,
    pxPerDegree,
    cell,
    valueSize,
    localCell,
    sizeAt: labelSizes(at, valueSize, labelEm),
    degreeLabel: label,
    extentX,
    extentY,
    toPx,
  };
}

/**
 * An axis-parallel line with the parts inside any of the boxes (widened by labelGap) left out: the axes pass under the
 * numbers at the locations without running through them.
 */
export function cutLine(line: LineNode, boxes: readonly TextBox[]): LineNode[] {
  const horizontal = line.y1 === line.y2;
  if (!horizontal && line.x1 !== line.x2) return [line];
  const at = horizontal ? line.y1 : line.x1;
  let segments: Array<[number, number]> = [
    horizontal ? [Math.min(line.x1, line.x2), Math.max(line.x1, line.x2)] : [Math.min(line.y1, line.y2), Math.max(line.y1, line.y2)],
  ];
  for (const b of boxes) {
    const [across0, across1, along0, along1] = horizontal ? [b.y0, b.y1, b.x0, b.x1] : [b.x0, b.x1, b.y0, b.y1];
    if (at <= across0 - labelGap || at >= across1 + labelGap) continue;
    const lo = along0 - labelGap,
      hi = along1 + labelGap;
    segments = segments.flatMap(
      ([a, z]): Array<[number, number]> =>
        hi <= a || lo >= z
          ? [[a, z]]
          : (
              [
                [a, Math.min(z, lo)],
                [Math.max(a, hi), z],
              ] as Array<[number, number]>
            ).filter(([u, v]) => v - u > 0.5),
    );
  }
  return segments.map(([a, z]) => (horizontal ? { ...line, x1: a, x2: z } : { ...line, y1: a, y2: z }));
}

/** The ink boxes of the texts among a plot's marks (labels at the locations). */
export function labelBoxes(marks: readonly SceneNode[]): TextBox[] {
  return marks.flatMap((n) => (n.kind === "text" && !n.rotation ? [textInkBox(n, resolveText(n.text))] : []));
}

/**
 * The fixation cross with a tick every 10 degrees (2 on 10-2) and the degree label at the right and top ends; lines and
 * ticks leave out what falls on the labels in `avoid`.
 */
export function fieldAxes(frame: FieldFrame, avoid: readonly TextBox[] = []): GroupNode {
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
  const children = avoid.length === 0 ? nodes : nodes.flatMap((n): SceneNode[] => (n.kind === "line" ? cutLine(n, avoid) : [n]));
  return { kind: "group", x: 0, y: 0, role: "axes", children };
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
      fieldAxes(frame, labelBoxes(marks)),
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
