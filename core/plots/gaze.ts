// The gaze chart: one bar per gaze sample (mean distance of the gaze from the fixation target), with the fixation
// threshold. Accounts seed §9: "Gaze chart: bar width 7 on screen, 1 in print; scale fixed at 40 if max under 10, else max
// plus 20; value -1 means could not measure." Issue #9: in print it is not drawn beyond 666 samples, with a notice.

import { GAZE_NOT_MEASURED, GAZE_PRINT_MAX_SAMPLES, gazeScaleMax as scaleMaxOfMax, largestMeasured } from "../analytics/gaze.ts";
import { formatTick, niceStep, tickCount } from "./axes.ts";
import { chartArea, yAxisNodes, yOf, type ValueAxis } from "./chart.ts";
import { titleNodes } from "./field.ts";
import { message, text, type Medium, type Scene, type SceneNode } from "./scene.ts";

/** "Value -1 means could not measure." (the rule lives in core/analytics/gaze.ts) */
export const gazeNotMeasured = GAZE_NOT_MEASURED;
/** Beyond this many samples the print layout leaves the gaze chart out (its 1-unit bars would merge into a block). */
export const gazePrintSampleLimit = GAZE_PRINT_MAX_SAMPLES;

/** "Bar width 7 on screen, 1 in print." */
export function gazeBarWidth(medium: Medium): number {
  return medium === "print" ? 1 : 7;
}

/** "Scale fixed at 40 if max under 10, else max plus 20" (the max of the measured samples). */
export function gazeScaleMax(samples: readonly number[]): number {
  return scaleMaxOfMax(largestMeasured(samples) ?? 0);
}

/** Whether the chart is drawn: always on screen; in print only up to 666 samples. */
export function gazeDrawable(samples: readonly number[], medium: Medium): boolean {
  return medium === "screen" || samples.length <= gazePrintSampleLimit;
}

export const gazePrintExceeded = message(
  "plots.gaze.printExceeded",
  "Gaze chart not printed: {count} samples exceed the print limit of {limit}. See it on screen.",
);

export interface GazeInput {
  /** meanDistance per sample; -1 = could not measure. */
  readonly samples: readonly number[];
  readonly fixationThreshold?: number | null;
  readonly medium: Medium;
  /** Minimum width; on screen the scene widens so every 7-px bar keeps a 1-px gap (the renderer scrolls it). */
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

export function gazeScene(input: GazeInput): Scene {
  const title = message("plots.gaze.title", "Gaze tracking");
  const { samples, medium } = input;
  const barWidth = gazeBarWidth(medium);
  // A low chart (the print layout's 7 % strip) puts a small title on the left instead of a title line.
  const compact = input.height < 80;
  const showTitle = input.showTitle !== false;
  const margins = { left: compact ? 118 : 40, right: 10, top: showTitle && !compact ? 24 : 6, bottom: compact ? 4 : 8 };
  const width = medium === "screen" ? Math.max(input.width, margins.left + margins.right + samples.length * (barWidth + 1)) : input.width;
  const nodes: SceneNode[] = compact
    ? showTitle
      ? [text(4, margins.top + 5, title, { size: 10, weight: "bold", anchor: "start" })]
      : []
    : // On screen a long test widens the chart past its box (the page scrolls it): the title stays over the box's
      // visible part instead of in the middle of the scroll.
      [...titleNodes(title, Math.min(width, input.width), input.showTitle)];
  if (!gazeDrawable(samples, medium)) {
    nodes.push(
      text(
        width / 2,
        (margins.top + input.height) / 2,
        { ...gazePrintExceeded, values: { count: samples.length, limit: gazePrintSampleLimit } },
        { size: 10, fill: "plot-notice" },
      ),
    );
    return { plot: "gaze", title, width, height: input.height, background: "plot-background", nodes };
  }
  const area = chartArea(width, input.height, margins);
  const max = gazeScaleMax(samples);
  // The seeds fix the scale's top, so the ticks divide [0, max] rather than rounding it.
  const count = tickCount(area.bottom - area.top, "y");
  // Round steps below the top, and the top itself always labelled (it is the rule's number).
  const step = niceStep(max / Math.max(1, count - 1));
  const ticks: number[] = [];
  for (let v = 0; v < max - step / 2; v += step) ticks.push(v);
  ticks.push(max);
  const axis: ValueAxis = { min: 0, max, ticks, step, downward: false };
  const y = yOf(axis, area);
  const yAxis = yAxisNodes(axis, area, message("plots.gaze.distance", "Distance"));
  // The rotated axis title does not fit a compact strip; the chart title says what it shows.
  nodes.push(...(compact ? yAxis.slice(0, -1) : yAxis));
  const slot = (area.right - area.left) / Math.max(1, samples.length);
  const bars: SceneNode[] = [];
  const unmeasured: SceneNode[] = [];
  samples.forEach((s, i) => {
    const x = area.left + i * slot + (slot - barWidth) / 2;
    if (s === gazeNotMeasured) {
      // Could not measure: a full-height pale band in its own colour, unmistakable for a value.
      unmeasured.push({ kind: "rect", x, y: area.top, width: barWidth, height: area.bottom - area.top, fill: "gaze-unmeasured" });
      return;
    }
    const v = Math.min(Math.max(s, 0), max);
    bars.push({ kind: "rect", x, y: y(v), width: barWidth, height: y(0) - y(v), fill: "gaze-bar" });
  });
  nodes.push({ kind: "group", x: 0, y: 0, role: "unmeasured", children: unmeasured });
  nodes.push({ kind: "group", x: 0, y: 0, role: "bars", children: bars });
  if (input.fixationThreshold !== null && input.fixationThreshold !== undefined && input.fixationThreshold <= max) {
    const ty = y(input.fixationThreshold);
    nodes.push(
      { kind: "line", x1: area.left, y1: ty, x2: area.right, y2: ty, stroke: "gaze-threshold", strokeWidth: 1, dash: [4, 3] },
      text(Math.min(area.right, input.width - margins.right) - 2, ty - 2, formatTick(input.fixationThreshold, 0.1), {
        size: 9,
        anchor: "end",
        baseline: "bottom",
        fill: "gaze-threshold",
        tabular: true,
      }),
    );
  }
  if (unmeasured.length > 0 && showTitle) {
    // Top right of the visible box (a long chart scrolls on screen), beside the title.
    const [lx, ly] = compact ? [4, margins.top + 17] : [Math.min(area.right, input.width - margins.right) - 118, 7];
    nodes.push(
      { kind: "rect", x: lx, y: ly, width: 8, height: 10, fill: "gaze-unmeasured" },
      text(lx + 12, ly + 5, message("plots.gaze.notMeasured", "could not measure"), {
        size: compact ? 9 : 10,
        anchor: "start",
        fill: "plot-ink-muted",
      }),
    );
  }
  return { plot: "gaze", title, width, height: input.height, background: "plot-background", nodes };
}
