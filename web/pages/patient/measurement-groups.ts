import type { PerimetryTest } from "../../results/result-model.ts";

type Dated = Pick<PerimetryTest, "result" | "createdAt" | "trashedAt">;

/** When a measurement happened: its result's time, or when it was created while still waiting. */
export const measurementDate = (m: Pick<Dated, "result" | "createdAt">): string => m.result?.takenAt ?? m.createdAt;

/**
 * "the measurement list grouped by date" (accounts seed §2): newest day first, newest first within a day. Measurements
 * and perimetry examinations alike (result-model.ts PerimetryTest).
 */
export function groupByDay<T extends Dated>(list: ReadonlyArray<T>): Array<{ day: string; items: T[] }> {
  const sorted = [...list].filter((m) => m.trashedAt === null).sort((a, b) => measurementDate(b).localeCompare(measurementDate(a)));
  const groups: Array<{ day: string; items: T[] }> = [];
  for (const m of sorted) {
    const day = measurementDate(m).slice(0, 10);
    const last = groups.at(-1);
    if (last && last.day === day) last.items.push(m);
    else groups.push({ day, items: [m] });
  }
  return groups;
}
