// The progression chart: mean defect over time per eye, with the regression line and its slope per year.
// Accounts seed §9: "Progression filters: all, 12 months, 1 month, 1 week, 1 day (analysis window values: all, 366, 31,
// 7, 1 days ...). Progression is a linear slope of mean defect per year rounded to 1 decimal, computed from the baseline
// onwards if one exists." analytics.md: "only valid, reliable results of pattern G or 24-2". The rules themselves
// (chartable, window, slope) are core/analytics/progression/md-slope.ts; this file draws them.

import {
  inWindow,
  isChartable,
  mdSlope,
  type MdSlope,
  type ProgressionPoint,
  type ProgressionWindow,
} from "../analytics/progression/md-slope.ts";
import { seriesChanges, type ResultDevice, type ResultStrategy } from "../analytics/series-sources.ts";
import { Eye } from "../model/enums.ts";
import { evenTicks, tickCount } from "./axes.ts";
import { chartArea, valueAxis, xAxisNodes, yAxisNodes, yOf, type ChartArea } from "./chart.ts";
import { titleNodes } from "./field.ts";
import type { ColourToken } from "./palette.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";
import { sourceLabel } from "./source-names.ts";
import { charEm } from "./text-metrics.ts";

export type { ProgressionPoint } from "../analytics/progression/md-slope.ts";

export type ProgressionFilter = "all" | "12m" | "1m" | "1w" | "1d";

/** The analysis window of each filter ("all, 366, 31, 7, 1 days"); the windowing itself is core/analytics' inWindow. */
export const progressionWindows: Record<ProgressionFilter, ProgressionWindow> = { all: "all", "12m": 366, "1m": 31, "1w": 7, "1d": 1 };

export const progressionFilterLabels: Record<ProgressionFilter, Message> = {
  all: message("plots.progression.filter.all", "All"),
  "12m": message("plots.progression.filter.12m", "12 months"),
  "1m": message("plots.progression.filter.1m", "1 month"),
  "1w": message("plots.progression.filter.1w", "1 week"),
  "1d": message("plots.progression.filter.1d", "1 day"),
};

const msPerDay = 86_400_000;
const msPerYear = msPerDay * 365.25;
const time = (t: string) => Date.parse(t);

/** The points the chart draws: chartable (valid, reliable, G or 24-2, with a mean defect) and inside the window. */
export function progressionPointsShown(points: readonly ProgressionPoint[], filter: ProgressionFilter, now: string): ProgressionPoint[] {
  return inWindow(points.filter(isChartable), progressionWindows[filter], now);
}

/** The regression line of a slope through the mean of the points it was fitted to, from the first to the last. */
export function trendLine(slope: MdSlope): { from: { t: number; md: number }; to: { t: number; md: number } } | undefined {
  if (slope.unrounded === null || slope.points.length < 2) return undefined;
  const ts = slope.points.map((p) => time(p.takenAt));
  const mds = slope.points.map((p) => p.meanDefect!);
  const mt = ts.reduce((a, b) => a + b, 0) / ts.length;
  const mmd = mds.reduce((a, b) => a + b, 0) / mds.length;
  const at = (t: number) => mmd + (slope.unrounded! * (t - mt)) / msPerYear;
  const t0 = Math.min(...ts);
  const t1 = Math.max(...ts);
  return { from: { t: t0, md: at(t0) }, to: { t: t1, md: at(t1) } };
}

/** Why a series has no slope (core/analytics' slope rule: at least 3 results over at least six months). */
export const noSlopeLabels: Record<NonNullable<MdSlope["noSlope"]>, Message> = {
  "too-few-results": message("plots.progression.noSlope.results", "No slope: it needs at least 3 results"),
  "too-short-span": message("plots.progression.noSlope.span", "No slope: the results span less than 6 months"),
};

/** The slope, or the sentence saying why there is none. */
export const slopeOrReason = (s: MdSlope): Message =>
  s.slopePerYear !== null ? slopeLabel(s.slopePerYear) : noSlopeLabels[s.noSlope ?? "too-few-results"];

/** "{slope} dB/year" with the slope "rounded to 1 decimal" (by core/analytics' mdSlope). */
export function slopeLabel(slopePerYear: number): Message {
  return message("plots.progression.slope", "{slope} dB/year", { slope: slopePerYear.toFixed(1) });
}

/** A change of device or strategy between two results of one eye on the chart (issue 29). */
export interface ChartSourceChange {
  readonly eye: Eye;
  /** The first result after the change. */
  readonly measurementId: string;
  readonly takenAt: string;
  readonly device: boolean;
  readonly strategy: boolean;
  readonly from: { readonly device: ResultDevice; readonly strategy: ResultStrategy };
  readonly to: { readonly device: ResultDevice; readonly strategy: ResultStrategy };
}

/**
 * Where the device or the strategy changes among the results each eye shows on the chart (after its filter), oldest
 * first, right eye before left on the same moment: what the chart marks with a dashed line and the page lists in words.
 */
export function chartSourceChanges(points: readonly ProgressionPoint[], filter: ProgressionFilter, now: string): ChartSourceChange[] {
  const shown = progressionPointsShown(points, filter, now);
  return eyes
    .flatMap((series) =>
      seriesChanges(shown.filter((p) => p.eye === series.code).sort((a, b) => time(a.takenAt) - time(b.takenAt))).map((c) => ({
        eye: series.code,
        measurementId: c.result.measurementId,
        takenAt: c.result.takenAt,
        device: c.device,
        strategy: c.strategy,
        from: c.from,
        to: c.to,
      })),
    )
    .sort((a, b) => time(a.takenAt) - time(b.takenAt));
}

export interface ProgressionInput {
  readonly points: readonly ProgressionPoint[];
  readonly filter: ProgressionFilter;
  /** ISO time the windows count back from (today). */
  readonly now: string;
  /** Baseline measurement id per eye (at most one per eye). */
  readonly baselines?: { readonly right?: string; readonly left?: string };
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
  /** Date labels of the time axis; default ISO date. Always a date, never a time of day (issue 20). */
  readonly formatTime?: (epochMs: number, spanMs: number) => string;
}

const defaultFormatTime = (t: number) => new Date(t).toISOString().slice(0, 10);

interface EyeSeries {
  readonly eye: "right" | "left";
  readonly code: Eye;
  readonly colour: ColourToken;
  readonly name: Message;
}

const eyes: readonly EyeSeries[] = [
  { eye: "right", code: Eye.Right, colour: "plot-eye-right", name: message("plots.progression.rightEye", "Right eye (OD)") },
  { eye: "left", code: Eye.Left, colour: "plot-eye-left", name: message("plots.progression.leftEye", "Left eye (OS)") },
];

/** The marker of a result: a circle for the right eye, a square for the left (told apart without colour). */
const marker = (series: EyeSeries, x: number, y: number, baseline: boolean): SceneNode[] => {
  const r = 3.5;
  const shape: SceneNode =
    series.eye === "right"
      ? { kind: "circle", cx: x, cy: y, r, fill: series.colour }
      : { kind: "rect", x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: series.colour };
  return baseline ? [shape, { kind: "circle", cx: x, cy: y, r: r + 3, stroke: series.colour, strokeWidth: 1.25 }] : [shape];
};

const MARKER_LABEL_SIZE = 10;
const MARKER_LABEL_ROWS = 2;

/**
 * The changes of device or strategy as dashed vertical lines across the plot area, each labelled with what the series
 * changed to ("HFA3 860 · SITA Standard"). Both eyes changing on one day with the same label share a line. Labels sit at
 * the top of the area, right of their line (left of it near the right edge), in up to two rows so neighbours do not
 * overlap; a label that would still collide is set in the row with the most room, shortened to fit (maxWidth).
 */
function changeMarkers(changes: readonly ChartSourceChange[], xOf: (t: number) => number, area: ChartArea): SceneNode[] {
  const marks: Array<{ x: number; label: Message; key: string }> = [];
  for (const c of changes) {
    const key = `${c.takenAt.slice(0, 10)}|${c.to.device.key}|${c.to.strategy.key}`;
    if (marks.some((m) => m.key === key)) continue;
    marks.push({ x: xOf(time(c.takenAt)), label: sourceLabel(c.to, true), key });
  }
  if (marks.length === 0) return [];
  const rowEnds = new Array<number>(MARKER_LABEL_ROWS).fill(Number.NEGATIVE_INFINITY);
  const children: SceneNode[] = [];
  for (const m of marks.sort((a, b) => a.x - b.x)) {
    children.push({
      kind: "line",
      x1: m.x,
      y1: area.top,
      x2: m.x,
      y2: area.bottom,
      stroke: "plot-ink-muted",
      strokeWidth: 1,
      dash: [4, 3],
    });
    const width = labelWidth(m.label);
    const right = area.right - m.x - 4 >= Math.min(width, 120);
    const start = right ? m.x + 3 : m.x - 3 - width;
    let row = rowEnds.findIndex((end) => end <= start);
    if (row < 0) row = rowEnds.indexOf(Math.min(...rowEnds));
    const room = right ? area.right - m.x - 4 : m.x - area.left - 4;
    rowEnds[row] = (right ? m.x + 3 + Math.min(width, room) : m.x) + 6;
    children.push(
      text(right ? m.x + 3 : m.x - 3, area.top + 3 + row * (MARKER_LABEL_SIZE + 3), m.label, {
        size: MARKER_LABEL_SIZE,
        anchor: right ? "start" : "end",
        baseline: "top",
        fill: "plot-ink-muted",
        maxWidth: Math.max(40, room),
      }),
    );
  }
  return [{ kind: "group", x: 0, y: 0, role: "source-changes", children }];
}

/** The English label's width (the layout's estimate; a longer translation is set smaller by its maxWidth). */
function labelWidth(label: Message): number {
  const values = label.values ?? {};
  const word = (v: unknown) => (typeof v === "object" && v !== null ? (v as Message).default : String(v ?? ""));
  const english = label.default.replace(/\{(\w+)\}/g, (_, k: string) => word(values[k]));
  return [...english].reduce((w, ch) => w + charEm(ch), 0) * MARKER_LABEL_SIZE;
}

export function progressionScene(input: ProgressionInput): Scene {
  const title = message("plots.progression.title", "Progression of mean defect");
  const shown = progressionPointsShown(input.points, input.filter, input.now);
  const legendHeight = 18;
  const top = (input.showTitle === false ? 8 : 28) + legendHeight;
  const area = chartArea(input.width, input.height, { top });
  const nodes: SceneNode[] = [...titleNodes(title, input.width, input.showTitle)];
  const times = shown.map((p) => time(p.takenAt));
  const window = progressionWindows[input.filter];
  const now = time(input.now);
  let t0 = window === "all" ? Math.min(...times) : now - window * msPerDay;
  let t1 = window === "all" ? Math.max(...times) : now;
  if (!(t1 > t0)) {
    // One result (or none): centre it in a day-wide axis.
    const c = Number.isFinite(t0) ? t0 : now;
    t0 = c - msPerDay / 2;
    t1 = c + msPerDay / 2;
  }
  const pad = (t1 - t0) * 0.04;
  const xOf = (t: number) => area.left + ((t - (t0 - pad)) / (t1 - t0 + 2 * pad)) * (area.right - area.left);
  const mds = shown.map((p) => p.meanDefect!);
  const axis = valueAxis(Math.min(0, ...mds), Math.max(5, ...mds), area, true);
  const y = yOf(axis, area);
  nodes.push(...yAxisNodes(axis, area, message("plots.progression.meanDefect", "Mean defect (dB)")));
  const format = input.formatTime ?? defaultFormatTime;
  const ticks = evenTicks(t0, t1, tickCount(area.right - area.left, "x"));
  // A date once: ticks within one day would repeat it.
  const labels = ticks.map((t) => format(t, t1 - t0));
  nodes.push(
    ...xAxisNodes(
      ticks.map((t, i) => ({ x: xOf(t), label: i > 0 && labels[i - 1] === labels[i] ? "" : labels[i]! })),
      area,
      undefined,
      input.height,
    ),
  );

  nodes.push(...changeMarkers(chartSourceChanges(input.points, input.filter, input.now), xOf, area));

  let legendX = area.left;
  for (const series of eyes) {
    const own = shown.filter((p) => p.eye === series.code).sort((a, b) => time(a.takenAt) - time(b.takenAt));
    if (own.length === 0) continue;
    const baselineId = input.baselines?.[series.eye];
    const baseline = own.find((p) => p.measurementId === baselineId);
    const slope = mdSlope(input.points, {
      eye: series.code,
      window: progressionWindows[input.filter],
      now: input.now,
      baselineId: baselineId ?? null,
    });
    const line = trendLine(slope);
    const children: SceneNode[] = [];
    if (own.length > 1)
      children.push({
        kind: "polyline",
        points: own.flatMap((p) => [xOf(time(p.takenAt)), y(p.meanDefect!)]),
        stroke: series.colour,
        strokeWidth: 1,
        dash: [2, 3],
      });
    if (line)
      children.push({
        kind: "line",
        x1: xOf(line.from.t),
        y1: y(line.from.md),
        x2: xOf(line.to.t),
        y2: y(line.to.md),
        stroke: series.colour,
        strokeWidth: 2,
      });
    for (const p of own) children.push(...marker(series, xOf(time(p.takenAt)), y(p.meanDefect!), p === baseline));
    nodes.push({ kind: "group", x: 0, y: 0, role: `series-${series.eye}`, children });
    // Legend entry: marker, eye name, slope (or the sentence saying why there is none). Each text keeps to its own
    // room (a longer translation is set smaller), so a German eye name never runs into the slope.
    const ly = top - legendHeight / 2 - 2;
    const entryWidth = Math.max(220, (area.right - area.left) / 2);
    nodes.push({
      kind: "group",
      x: legendX,
      y: ly,
      role: `legend-${series.eye}`,
      children: [
        ...marker(series, 4, 0, false),
        text(12, 0, series.name, { size: 11, anchor: "start", maxWidth: 84 }),
        text(100, 0, slopeOrReason(slope), {
          size: 11,
          anchor: "start",
          maxWidth: Math.min(entryWidth, input.width - legendX) - 108,
          weight: slope.slopePerYear !== null ? "bold" : "normal",
          tabular: true,
          fill: slope.slopePerYear !== null ? "plot-ink" : "plot-ink-muted",
        }),
      ],
    });
    legendX += entryWidth;
  }
  if (shown.length === 0)
    nodes.push(
      text(
        (area.left + area.right) / 2,
        (area.top + area.bottom) / 2,
        message("plots.progression.empty", "No valid, reliable 24-2 or G results in this period"),
        { size: 12, fill: "plot-ink-muted" },
      ),
    );
  return { plot: "progression", title, width: input.width, height: input.height, background: "plot-background", nodes };
}
