// The frame of the x/y charts (Bebie curve, progression, gaze): plot area, gridlines, ticks and axis titles. Tick counts
// follow the seeds' rule (tickCount); the y axis may run downward (defects: worse is lower).

import { formatTick, niceTicks, tickCount } from "./axes.ts";
import { text, type Message, type SceneNode } from "./scene.ts";

export interface ChartArea {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface ValueAxis {
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly number[];
  readonly step: number;
  /** True when larger values are drawn lower (defect axes). */
  readonly downward: boolean;
}

export const chartMargins = { left: 46, right: 16, top: 30, bottom: 34 } as const;

export function chartArea(width: number, height: number, margins: Partial<ChartArea> = {}): ChartArea {
  return {
    left: margins.left ?? chartMargins.left,
    top: margins.top ?? chartMargins.top,
    right: width - (margins.right ?? chartMargins.right),
    bottom: height - (margins.bottom ?? chartMargins.bottom),
  };
}

/** A value axis with about one tick per 50 px of plot height. */
export function valueAxis(min: number, max: number, area: ChartArea, downward = false): ValueAxis {
  const nice = niceTicks(min, max, tickCount(area.bottom - area.top, "y"));
  const step = nice.ticks.length > 1 ? nice.ticks[1]! - nice.ticks[0]! : 1;
  return { min: nice.min, max: nice.max, ticks: nice.ticks, step, downward };
}

export const yOf = (axis: ValueAxis, area: ChartArea) => (v: number) => {
  const f = (v - axis.min) / (axis.max - axis.min || 1);
  return axis.downward ? area.top + f * (area.bottom - area.top) : area.bottom - f * (area.bottom - area.top);
};

/** Horizontal gridlines with labels at the y ticks, the frame of the plot area and the y-axis title. */
export function yAxisNodes(axis: ValueAxis, area: ChartArea, title: Message): SceneNode[] {
  const y = yOf(axis, area);
  const nodes: SceneNode[] = [];
  for (const t of axis.ticks) {
    nodes.push(
      { kind: "line", x1: area.left, y1: y(t), x2: area.right, y2: y(t), stroke: "plot-grid", strokeWidth: 0.75 },
      text(area.left - 5, y(t), formatTick(t, axis.step), { size: 10, anchor: "end", tabular: true, fill: "plot-ink-muted" }),
    );
  }
  nodes.push(
    {
      kind: "rect",
      x: area.left,
      y: area.top,
      width: area.right - area.left,
      height: area.bottom - area.top,
      stroke: "plot-frame",
      strokeWidth: 0.75,
    },
    text(11, (area.top + area.bottom) / 2, title, { size: 10, rotation: -90, fill: "plot-ink-muted" }),
  );
  return nodes;
}

/** Labels under the plot area at the given x positions, and the x-axis title. */
export function xAxisNodes(
  labels: ReadonlyArray<{ x: number; label: string }>,
  area: ChartArea,
  title: Message | undefined,
  height: number,
): SceneNode[] {
  const nodes: SceneNode[] = labels.flatMap(({ x, label }, i): SceneNode[] => [
    { kind: "line", x1: x, y1: area.bottom, x2: x, y2: area.bottom + 4, stroke: "plot-frame", strokeWidth: 0.75 },
    text(x, area.bottom + 6, label, {
      size: 10,
      baseline: "top",
      tabular: true,
      fill: "plot-ink-muted",
      // The outermost labels align inwards so they stay inside the scene.
      anchor: labels.length > 1 && i === 0 ? "start" : labels.length > 1 && i === labels.length - 1 ? "end" : "middle",
    }),
  ]);
  if (title) nodes.push(text((area.left + area.right) / 2, height - 4, title, { size: 10, baseline: "bottom", fill: "plot-ink-muted" }));
  return nodes;
}
