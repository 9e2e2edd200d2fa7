import type { Examination } from "../../../core/model/examination.ts";

/** "Five most recent examinations" (accounts seed §9). */
export const recentLimit = 5;

export interface TestEntry {
  /** The examination the link opens (the first of an appointment). */
  readonly examination: Examination;
  /** Every examination of the entry (one, or the appointment's). */
  readonly examinations: ReadonlyArray<Examination>;
  /** When the last result was taken, or when it was scheduled. */
  readonly at: string;
}

const takenAt = (e: Examination): string => (e.result ? e.result.takenAt : e.updatedAt);
const newestFirst = (a: TestEntry, b: TestEntry) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0);

/**
 * "Scheduled examination: result is null. Recent: result present (the five latest). With appointments, recent means
 * every examination has a result; scheduled means at least one has none." (accounts seed §4)
 * Trashed examinations are left out; lists are newest first ("home lists in reverse order of arrival", §9).
 */
export function homeTestLists(all: ReadonlyArray<Examination>, byAppointment: boolean): { recent: TestEntry[]; scheduled: TestEntry[] } {
  const active = all.filter((e) => e.trashedAt === null);
  const groups = new Map<string, Examination[]>();
  for (const e of active) {
    const key = byAppointment && e.appointmentId ? `a:${e.appointmentId}` : `e:${e.id}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const recent: TestEntry[] = [];
  const scheduled: TestEntry[] = [];
  for (const examinations of groups.values()) {
    const done = examinations.every((e) => e.result !== null);
    const at = examinations.map(done ? takenAt : (e: Examination) => e.createdAt).sort().at(-1)!;
    (done ? recent : scheduled).push({ examination: examinations[0]!, examinations, at });
  }
  return { recent: recent.sort(newestFirst).slice(0, recentLimit), scheduled: scheduled.sort(newestFirst) };
}
