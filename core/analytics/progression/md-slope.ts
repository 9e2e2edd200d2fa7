import { Pattern, type Eye } from "../../model/enums.ts";
import { roundTo } from "../octopus.ts";
import type { SourcedResult } from "../series-sources.ts";

/**
 * The progression chart's MD slope (accounts seed §5 and §9):
 * "Progression chart uses only valid results with pattern G or 24-2 that are not unreliable."
 * "Progression is a linear slope of mean defect per year rounded to 1 decimal, computed from the baseline onwards if
 * one exists." Windows: "all, 366, 31, 7, 1 days".
 *
 * A slope that cannot mislead (issue 20): only from at least MIN_SLOPE_RESULTS results spanning at least
 * MIN_SLOPE_SPAN_DAYS. Below six months test-retest variability (1-2 dB in MD) dominates any rate; two results taken
 * the same day gave -191,593 dB/year on a time-of-day axis. Otherwise no slope, and `noSlope` says why.
 */
export const MIN_SLOPE_RESULTS = 3;
export const MIN_SLOPE_SPAN_DAYS = 182;
export const PROGRESSION_WINDOWS = ["all", 366, 31, 7, 1] as const;
export type ProgressionWindow = (typeof PROGRESSION_WINDOWS)[number];
export const PROGRESSION_PATTERNS: readonly Pattern[] = [Pattern.G, Pattern.P24_2];

/**
 * A progression point (accounts seed §3) plus the flags the chart filters on, and its strategy and source (issue 29:
 * the chart marks where the device or the strategy changes).
 */
export interface ProgressionPoint extends SourcedResult {
  readonly measurementId: string;
  readonly takenAt: string;
  readonly meanDefect: number | null;
  readonly eye: Eye;
  readonly pattern: Pattern;
  /** False when the result is incomplete or failed. */
  readonly valid?: boolean;
  /** True when the clinician marked the measurement unreliable. */
  readonly unreliable?: boolean;
}

const MS_PER_DAY = 86_400_000;
const DAYS_PER_YEAR = 365.25;

/** A result is on the chart when valid, not unreliable, of pattern G or 24-2 and with a finite mean defect. */
export function isChartable(p: ProgressionPoint): boolean {
  return (
    p.valid !== false &&
    p.unreliable !== true &&
    PROGRESSION_PATTERNS.includes(p.pattern) &&
    typeof p.meanDefect === "number" &&
    Number.isFinite(p.meanDefect) &&
    !Number.isNaN(Date.parse(p.takenAt))
  );
}

/**
 * The pattern a patient's chart opens on (issue 30): the chart pattern of which the patient has the most chartable
 * results, so a patient tested only on G does not open on an empty 24-2 chart. A tie, or no chartable result, keeps the
 * reader's stored choice (client setting `pattern`, "default analysis pattern 24-2", accounts seed §3).
 */
export function openingChartPattern(points: readonly ProgressionPoint[], stored: Pattern): Pattern {
  const counts = new Map<Pattern, number>(PROGRESSION_PATTERNS.map((p) => [p, 0]));
  for (const p of points) if (isChartable(p)) counts.set(p.pattern, counts.get(p.pattern)! + 1);
  const most = Math.max(...counts.values());
  const storedCount = counts.get(stored);
  if (most === 0 || storedCount === most) return PROGRESSION_PATTERNS.includes(stored) ? stored : Pattern.P24_2;
  return [Pattern.P24_2, Pattern.G].find((p) => counts.get(p) === most)!;
}

/** Points inside a window of `days` ending at `now` (inclusive); "all" keeps everything. */
export function inWindow(points: readonly ProgressionPoint[], window: ProgressionWindow, now: string): ProgressionPoint[] {
  if (window === "all") return [...points];
  const end = Date.parse(now),
    start = end - window * MS_PER_DAY;
  return points.filter((p) => {
    const t = Date.parse(p.takenAt);
    return t >= start && t <= end;
  });
}

/** Least-squares slope of y on x; null with fewer than 2 points or no spread in time. */
export function leastSquaresSlope(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n,
    my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

export interface MdSlopeOptions {
  readonly eye: Eye;
  /** Restrict to one pattern (G and 24-2 means are not on the same scale); default: the baseline's, else 24-2 and G together. */
  readonly pattern?: Pattern;
  readonly window?: ProgressionWindow;
  /** End of the window (ISO time); default the latest point. */
  readonly now?: string;
  /** The eye's baseline measurement id, if one is set. */
  readonly baselineId?: string | null;
}

export interface MdSlope {
  /** dB per year, rounded to 1 decimal; null unless the points pass the rule above. */
  readonly slopePerYear: number | null;
  readonly unrounded: number | null;
  readonly points: ProgressionPoint[];
  /** Why there is no slope: fewer than MIN_SLOPE_RESULTS results, or a span shorter than MIN_SLOPE_SPAN_DAYS. */
  readonly noSlope: "too-few-results" | "too-short-span" | null;
}

/** Whether a series of dates may carry a rate (the rule above); null when it may. */
export function slopeRefusal(takenAt: readonly string[]): MdSlope["noSlope"] {
  if (takenAt.length < MIN_SLOPE_RESULTS) return "too-few-results";
  const t = takenAt.map((s) => Date.parse(s));
  return (Math.max(...t) - Math.min(...t)) / MS_PER_DAY < MIN_SLOPE_SPAN_DAYS ? "too-short-span" : null;
}

export function mdSlope(all: readonly ProgressionPoint[], options: MdSlopeOptions): MdSlope {
  let points = all.filter((p) => p.eye === options.eye && isChartable(p));
  const baseline = options.baselineId ? points.find((p) => p.measurementId === options.baselineId) : undefined;
  const pattern = options.pattern ?? baseline?.pattern;
  if (pattern !== undefined) points = points.filter((p) => p.pattern === pattern);
  if (baseline) points = points.filter((p) => Date.parse(p.takenAt) >= Date.parse(baseline.takenAt));
  points.sort((a, b) => Date.parse(a.takenAt) - Date.parse(b.takenAt));
  const now = options.now ?? points[points.length - 1]?.takenAt;
  if (now) points = inWindow(points, options.window ?? "all", now);
  const noSlope = slopeRefusal(points.map((p) => p.takenAt));
  const x = points.map((p) => Date.parse(p.takenAt) / MS_PER_DAY / DAYS_PER_YEAR);
  const unrounded = noSlope
    ? null
    : leastSquaresSlope(
        x,
        points.map((p) => p.meanDefect!),
      );
  return { slopePerYear: unrounded === null ? null : roundTo(unrounded, 1), unrounded, points, noSlope };
}
