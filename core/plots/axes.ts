// Axis rules of the seeds: "Chart ticks: about one per 300 px width and 50 px height; degree labels 10, 30 or 60 by pattern."

import { Pattern } from "../model/enums.ts";

export const pxPerTickX = 300;
export const pxPerTickY = 50;

/** How many ticks an axis of `px` pixels carries: "about one per 300 px width and 50 px height" (at least 2: both ends). */
export function tickCount(px: number, axis: "x" | "y"): number {
  return Math.max(2, Math.round(px / (axis === "x" ? pxPerTickX : pxPerTickY)));
}

/**
 * The degree label of a field plot's axes: "degree labels 10, 30 or 60 by pattern". 10-2 spans 10 degrees, the
 * binocular Esterman field 60 and more, every other pattern (24-2, 30-2, G, S28, C40) 30.
 */
export function degreeLabel(pattern: Pattern): 10 | 30 | 60 {
  if (pattern === Pattern.P10_2) return 10;
  if (pattern === Pattern.Esterman) return 60;
  return 30;
}

/** `count` evenly spaced values from `min` to `max` inclusive (time axes: exactly the rule's count). */
export function evenTicks(min: number, max: number, count: number): number[] {
  if (count < 2 || max === min) return [min];
  return Array.from({ length: count }, (_, i) => min + ((max - min) * i) / (count - 1));
}

/** A 1, 2 or 5 times a power of ten step near `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
}

/**
 * Round-valued ticks covering [min, max], about `count` of them (value axes read better with round numbers than with
 * an exact count). Returns the ticks and the widened domain they span.
 */
export function niceTicks(min: number, max: number, count: number): { ticks: number[]; min: number; max: number } {
  if (max < min) [min, max] = [max, min];
  if (max === min) {
    min -= 1;
    max += 1;
  }
  const step = niceStep((max - min) / Math.max(1, count - 1));
  const lo = Math.floor(min / step + 1e-9) * step;
  const hi = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v / step) * step);
  return { ticks, min: lo, max: hi };
}

/** A tick value as a label: integers plainly, otherwise up to the step's decimals. */
export function formatTick(value: number, step: number): string {
  const decimals = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
  const s = value.toFixed(decimals);
  return s === "-0" || /^-0\.0*$/.test(s) ? s.slice(1) : s;
}
