// What every bench prints its figures with.
import { loadavg } from "node:os";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The machine is shared: every figure is printed beside the load average (1, 5 and 15 minutes). */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The p-th percentile of an ascending list, the value below which p % of it lies (NaN for an empty list). */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
