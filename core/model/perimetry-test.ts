import { type Eye, type Pattern, patternLabel, type Strategy, strategyCodes, TestType } from "./enums.ts";
import { type Examination, isMeasurementResult } from "./examination.ts";
import type { Measurement } from "./measurement.ts";
import type { MeasurementResult } from "./measurement-result.ts";

// One perimetry test, whichever variant stored it: a measurement (measurement variant) or a perimetry examination
// (appointment variant, "Two variants ... one based on measurements, one on appointments and examinations"). A clinic
// that switched variants keeps both, so readers (the web's result page, the CLI's export) read both as one history.
// Pure mappings, shared by web/results and cli/export so both read an examination the same way.

export interface PerimetryTest {
  readonly id: string;
  readonly source: "measurement" | "examination";
  readonly patientId: string;
  readonly eye: Eye;
  readonly pattern: Pattern;
  readonly strategy: Strategy;
  /** The measurement's name; an examination has none (perimetryTestName gives one for both). */
  readonly displayName: string | null;
  readonly notes: string;
  readonly result: MeasurementResult | null;
  readonly createdAt: string;
  readonly trashedAt: string | null;
}

/** A perimetry test with what the server stored beyond the result page's needs (the CLI's export prints these). */
export interface StoredPerimetryTest extends PerimetryTest {
  /** The device it was queued on; null once the device is gone (or never set). */
  readonly deviceSn: string | null;
  /**
   * The stored clinician's flag: a measurement's `reliable`. An examination has no such flag (the web keeps its
   * marks as local-storage ids, for either kind), so nothing on the server marked it unreliable: true. Either way the
   * result's own reliability (catch trials, core/analytics) still decides whether the test is reliable.
   */
  readonly reliable: boolean;
  /** The appointment an examination belongs to; null for a measurement (and an examination outside appointments). */
  readonly appointmentId: string | null;
}

export const fromMeasurement = (m: Measurement): PerimetryTest => ({
  id: m.id,
  source: "measurement",
  patientId: m.patientId,
  eye: m.eye,
  pattern: m.pattern,
  strategy: m.strategy,
  displayName: m.displayName,
  notes: m.notes,
  result: m.result,
  createdAt: m.createdAt,
  trashedAt: m.trashedAt,
});

/**
 * A perimetry examination as a perimetry test: its result is a MeasurementResult, and its eye, pattern and strategy
 * are the result's (what was run) or, before it is taken, its configuration's. Null for another test type, or for a
 * perimetry examination with neither a perimetry result nor a configuration (nothing to show).
 */
export function fromExamination(e: Examination): PerimetryTest | null {
  if (e.type !== TestType.Perimetry) return null;
  const result = isMeasurementResult(e.result) ? e.result : null;
  const run = result ?? e.config;
  if (!run) return null;
  return {
    id: e.id,
    source: "examination",
    patientId: e.patientId,
    eye: result?.eye ?? e.eye,
    pattern: run.pattern,
    strategy: run.strategy,
    displayName: null,
    notes: e.notes,
    result,
    createdAt: e.createdAt,
    trashedAt: e.trashedAt,
  };
}

/** fromMeasurement with the stored facts (written out: an export makes one per result). */
export const storedFromMeasurement = (m: Measurement): StoredPerimetryTest => ({
  id: m.id,
  source: "measurement",
  patientId: m.patientId,
  eye: m.eye,
  pattern: m.pattern,
  strategy: m.strategy,
  displayName: m.displayName,
  notes: m.notes,
  result: m.result,
  createdAt: m.createdAt,
  trashedAt: m.trashedAt,
  deviceSn: m.deviceSn,
  reliable: m.reliable,
  appointmentId: null,
});

/** fromExamination with the stored facts: no clinician's flag (reliable: true, see StoredPerimetryTest). */
export function storedFromExamination(e: Examination): StoredPerimetryTest | null {
  const t = fromExamination(e);
  return t && { ...t, deviceSn: e.deviceSn, reliable: true, appointmentId: e.appointmentId };
}

/** When a test happened: its result's time, or when it was created while still waiting. */
export const testDate = (m: Pick<PerimetryTest, "result" | "createdAt">): string => m.result?.takenAt ?? m.createdAt;

/** A patient's measurements and perimetry examinations as one list, oldest first (each id once). */
export function perimetryTests(measurements: readonly Measurement[], examinations: readonly Examination[]): PerimetryTest[] {
  const tests: PerimetryTest[] = measurements.map(fromMeasurement);
  const seen = new Set(tests.map((m) => m.id));
  for (const e of examinations) {
    const test = seen.has(e.id) ? null : fromExamination(e);
    if (test) tests.push(test);
  }
  return tests.sort((a, b) => testDate(a).localeCompare(testDate(b)) || a.id.localeCompare(b.id));
}

/** A test's name: the measurement's displayName, else (an examination) its pattern and strategy, e.g. "24-2 SORS". */
export const perimetryTestName = (t: Pick<PerimetryTest, "displayName" | "pattern" | "strategy">): string =>
  t.displayName ?? `${patternLabel[t.pattern]} ${(strategyCodes[t.strategy] ?? strategyCodes[0]).label}`;
