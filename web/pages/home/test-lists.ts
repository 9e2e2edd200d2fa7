import type { Examination } from "../../../core/model/examination.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import type { Device } from "../../../core/model/device.ts";
import type { Eye, TestType } from "../../../core/model/enums.ts";

/** "Five most recent examinations" (accounts seed §9). */
export const recentLimit = 5;

/** A test as home lists it: an examination (appointment variant) or a queued measurement (measurement variant). */
export interface TestItem {
  readonly id: string;
  readonly patientId: string;
  readonly deviceSn: string | null;
  readonly type: TestType;
  /** The eye it tests: two rows of one patient's pair of eyes otherwise read alike (issue 21). */
  readonly eye: Eye;
  readonly appointmentId: string | null;
  /** When its result was taken; null while scheduled. */
  readonly takenAt: string | null;
  readonly createdAt: string;
  readonly trashedAt: string | null;
}

export interface TestEntry {
  /** The test the link opens: an appointment's first perimetry test ("Recent tests link to
   * /patient/{patientId}/perimetry/{examinationId}"), else its first test. */
  readonly item: TestItem;
  /** Every test of the entry (one, or the appointment's). */
  readonly items: ReadonlyArray<TestItem>;
  /** When the last result was taken, or when it was scheduled. */
  readonly at: string;
}

export const fromExamination = (e: Examination): TestItem => ({
  id: e.id,
  patientId: e.patientId,
  deviceSn: e.deviceSn,
  type: e.type,
  eye: e.eye,
  appointmentId: e.appointmentId,
  takenAt: e.result ? e.result.takenAt : null,
  createdAt: e.createdAt,
  trashedAt: e.trashedAt,
});

export const fromMeasurement = (m: Measurement, laneSn: string | null = null): TestItem => ({
  id: m.id,
  patientId: m.patientId,
  deviceSn: m.deviceSn ?? laneSn,
  type: "perimetry",
  eye: m.result ? m.result.eye : m.eye,
  appointmentId: null,
  takenAt: m.result ? m.result.takenAt : null,
  createdAt: m.createdAt,
  trashedAt: m.trashedAt,
});

/**
 * Measurement variant: the lanes' queues hold the scheduled measurements; the latest results come from
 * `perimetry/recent` (our call: the seeds give none across patients). A measurement in both counts once.
 */
export const fromDevicesAndResults = (devices: ReadonlyArray<Device>, results: ReadonlyArray<Measurement>): TestItem[] => {
  const queued = devices.flatMap((d) => d.perimetries.map((m) => fromMeasurement(m, d.deviceSn)));
  const seen = new Set(queued.map((t) => t.id));
  return [...queued, ...results.filter((m) => !seen.has(m.id)).map((m) => fromMeasurement(m))];
};

const ranFirst = (a: TestItem, b: TestItem) =>
  a.takenAt !== null && b.takenAt !== null
    ? a.takenAt < b.takenAt
      ? -1
      : a.takenAt > b.takenAt
        ? 1
        : 0
    : a.takenAt !== null
      ? -1
      : b.takenAt !== null
        ? 1
        : 0;

const newestFirst = (a: TestEntry, b: TestEntry) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0);

/**
 * "Scheduled examination: result is null. Recent: result present (the five latest). With appointments, recent means
 * every examination has a result; scheduled means at least one has none." (accounts seed §4)
 * Trashed tests are left out; lists are newest first ("home lists in reverse order of arrival", §9).
 */
export function homeTestLists(all: ReadonlyArray<TestItem>, byAppointment: boolean): { recent: TestEntry[]; scheduled: TestEntry[] } {
  const groups = new Map<string, TestItem[]>();
  for (const t of all) {
    if (t.trashedAt !== null) continue;
    const key = byAppointment && t.appointmentId ? `a:${t.appointmentId}` : `t:${t.id}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const recent: TestEntry[] = [];
  const scheduled: TestEntry[] = [];
  for (const group of groups.values()) {
    // An appointment's tests in the order they ran, the ones still to run after them (in the order they came).
    const items = [...group].sort(ranFirst);
    const done = items.every((t) => t.takenAt !== null);
    const at = items
      .map((t) => (done ? t.takenAt! : t.createdAt))
      .sort()
      .at(-1)!;
    const item = items.find((t) => t.type === "perimetry") ?? items[0]!;
    (done ? recent : scheduled).push({ item, items, at });
  }
  return { recent: recent.sort(newestFirst).slice(0, recentLimit), scheduled: scheduled.sort(newestFirst) };
}
