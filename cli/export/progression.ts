import type { EyeProgression, SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import { getPattern, patternsWithGeometry } from "../../core/analytics/patterns.ts";
import { printProgression, type PrintProgression } from "../../core/plots/print-header.ts";
import { isScreening } from "../../core/plots/screening.ts";
import { thresholdResult } from "../../core/analytics/stored-result.ts";
import { heldPerPatient, type HeldPerPatient } from "./patient-records.ts";
import type { ExportRecord } from "./record.ts";

// The eye's progression analysis (issue 20: "in the print, in the CLI's JSON"), what the perimetry page shows beside
// its chart: the export reads a patient's results together, oldest first, so a printed page states its eye's analysis
// up to it (progressionTracker) and the JSON carries each eye's analysis on each pattern at its latest result
// (patientSeries). The baseline is the eye's first two results (the web's baseline marks live in each browser's
// storage, not on the server). A filter that leaves results out (--from, --reliable-only) leaves them out of the
// series too. PoPLR's permutations take about half a second per analysis above 7 results.

/** A record as the progression analysis reads it: valid when it is a complete threshold test (not a screening). */
function seriesResult(r: ExportRecord): SeriesResult {
  const t = r.result;
  const complete =
    patternsWithGeometry.includes(t.pattern) &&
    t.thresholds.length === getPattern(t.pattern).points.length &&
    t.thresholds.every((v) => Number.isFinite(v));
  return {
    id: r.test.id,
    takenAt: t.takenAt,
    eye: t.eye,
    pattern: t.pattern,
    age: r.age,
    thresholds: t.thresholds,
    normativeVersion: t.normativeVersion,
    valid: complete && !isScreening(t.strategy),
    unreliable: !r.test.reliable,
    strategy: t.strategy,
    source: t.source ?? null,
  };
}

export interface SeriesTracker {
  /** r's eye's progression on r's pattern up to r. */
  of(r: ExportRecord): PrintProgression;
  /**
   * The result r's printed page compares with in its "Difference (dB)" plot, as the web's page does
   * (web/results/result-model.ts previousOfSameKind): the latest earlier threshold result of the same eye and pattern
   * among the patient's exported results so far; null for the first.
   */
  referenceOf(r: ExportRecord): ExportRecord | null;
}

/** Follows the records as they stream (a patient's together, oldest first). */
export function progressionTracker(timeZone: string): SeriesTracker {
  let patientId: string | null = null;
  let series: SeriesResult[] = [];
  let records: ExportRecord[] = [];
  const known = new Map<ExportRecord, PrintProgression>();
  const follow = (r: ExportRecord) => {
    if (r.patient.id !== patientId) {
      patientId = r.patient.id;
      series = [];
      records = [];
      known.clear();
    }
    if (!records.some((x) => x.test.id === r.test.id)) {
      records.push(r);
      series.push(seriesResult(r));
    }
  };
  return {
    of(r) {
      const cached = known.get(r);
      if (cached) return cached;
      follow(r);
      const p = printProgression(series, r.result, null, timeZone);
      known.set(r, p);
      return p;
    },
    referenceOf(r) {
      follow(r);
      let best: ExportRecord | null = null;
      for (const x of records) {
        if (x.test.id === r.test.id || x.result.eye !== r.result.eye || x.result.pattern !== r.result.pattern) continue;
        if (x.result.takenAt >= r.result.takenAt || !thresholdResult(x.result)) continue;
        if (!best || x.result.takenAt > best.result.takenAt) best = x;
      }
      return best;
    },
  };
}

/**
 * Holds one patient's records until the next patient's first (or the end: patient-records.ts), then hands them on in
 * order, each with the progression of its eye on its pattern when it is that eye's latest result on that pattern (else
 * null): one analysis per eye and pattern, as the page's, not one per record; and with the patient's records.
 */
export function patientSeries(
  emit: (r: ExportRecord, progression: PrintProgression | null, patientRecords: readonly ExportRecord[]) => Promise<void>,
): HeldPerPatient {
  return heldPerPatient(async (records) => {
    const series = records.map(seriesResult);
    const latest = new Map<string, ExportRecord>();
    for (const r of records) latest.set(`${r.result.eye}/${r.result.pattern}`, r);
    const last = new Set(latest.values());
    for (const r of records) await emit(r, last.has(r) ? printProgression(series, r.result, null, "UTC") : null, records);
  });
}

/**
 * The progression as the JSON export carries it: core's EyeProgression (results by id, probabilities as fractions,
 * per-location TD slopes and their p in location order, the VFI rate in % per year).
 */
export const progressionJson = (p: PrintProgression): EyeProgression => p.analysis;
