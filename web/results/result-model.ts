// What the result page computes from stored measurements, as pure functions (tested in tests/web/results):
// which results are valid, their analysis, the marks' inputs, the progression points and the indices as printed.

import { ageAtTest, type ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { analyseStoredResult, resultValid, thresholdResult } from "../../core/analytics/stored-result.ts";
import { getNormativeDatabase, hasNormativeDatabase, normativeDatabaseName } from "../../core/analytics/normative/registry.ts";
import { octopusIndices, roundTo } from "../../core/analytics/octopus.ts";
import { normalSensitivity } from "../../core/analytics/pointwise.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import type { MarkedResult } from "../../core/analytics/progression/baseline.ts";
import type { SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import type { ProgressionPoint } from "../../core/analytics/progression/md-slope.ts";
import {
  limitSeries,
  seriesDevices,
  seriesStrategies,
  type ResultDevice,
  type ResultStrategy,
  type SeriesLimit,
} from "../../core/analytics/series-sources.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import type { PerimetryTest } from "../../core/model/perimetry-test.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";

// One perimetry test as the result page shows it, whichever variant stored it (a measurement or a perimetry
// examination): the mapping lives in core, shared with the CLI's export. Baseline and unreliable marks are
// local-storage ids (use-marks.ts), so they apply to either; only notes are saved on the server, each through its own
// call (`source`).
export { fromExamination, fromMeasurement, perimetryTests, testDate, type PerimetryTest } from "../../core/model/perimetry-test.ts";

export type WithResult = PerimetryTest & { readonly result: MeasurementResult };

export const hasResult = (m: PerimetryTest): m is WithResult => m.result !== null;

// Which stored results are valid and how one becomes the analysis' input live in core, shared with the CLI's export
// and the simulator's stored indices.
export { resultValid, thresholdResult } from "../../core/analytics/stored-result.ts";

/** The full analysis of a stored result for a patient born on `birthdate`; null when it cannot be analysed. */
export const analyseStored = (r: MeasurementResult, birthdate: string): ResultAnalysis | null =>
  analyseStoredResult(r, ageAtTest(birthdate, r.takenAt));

// A patient's results are analysed again whenever the page renders them (another result selected, the history
// opened): the analysis of a stored result object is kept while that object lives (the cache holds a new list).
const analyses = new WeakMap<MeasurementResult, Map<string, ResultAnalysis | null>>();

/** analyseStored, once per stored result and birthdate; null also when the analysis fails on a malformed result. */
export function analysisOf(r: MeasurementResult, birthdate: string): ResultAnalysis | null {
  let byBirthdate = analyses.get(r);
  if (!byBirthdate) analyses.set(r, (byBirthdate = new Map()));
  if (byBirthdate.has(birthdate)) return byBirthdate.get(birthdate)!;
  let analysis: ResultAnalysis | null;
  try {
    analysis = analyseStored(r, birthdate);
  } catch {
    analysis = null;
  }
  byBirthdate.set(birthdate, analysis);
  return analysis;
}

/**
 * The mean defect the page prints and charts for a result: analyseStored(r).display.meanDefect, computed alone (the
 * same normals, the same Octopus mean, the same rounding) so the chart of 40 results does not run 40 full analyses.
 * tests/web/results keeps the two equal. The stored value where the result cannot be analysed.
 */
export function displayMeanDefect(r: MeasurementResult, birthdate: string): number | null {
  let byBirthdate = meanDefects.get(r);
  if (!byBirthdate) meanDefects.set(r, (byBirthdate = new Map()));
  if (!byBirthdate.has(birthdate)) byBirthdate.set(birthdate, computeMeanDefect(r, birthdate));
  return byBirthdate.get(birthdate)!;
}

const meanDefects = new WeakMap<MeasurementResult, Map<string, number | null>>();

function computeMeanDefect(r: MeasurementResult, birthdate: string): number | null {
  if (!resultValid(r)) return r.meanDefect;
  const geometry = getPattern(r.pattern);
  if (geometry.binocular) return null;
  const blind = geometry.blindSpotIndices;
  const tables = getNormativeDatabase(r.pattern, r.normativeVersion);
  const normals = tables ? normalSensitivity(tables, ageAtTest(birthdate, r.takenAt)) : r.normValues;
  if (!normals) return null;
  const sens = r.thresholds.map((t, i) => (blind.includes(i) ? null : t));
  const md = octopusIndices(
    normals.map((v, i) => (blind.includes(i) ? null : v)),
    sens,
  ).md;
  return Number.isNaN(md) ? null : roundTo(md, 2);
}

/** "Only results with a normative database can be baseline": a stored null version means none was used. */
export const resultHasNormativeDatabase = (r: MeasurementResult): boolean =>
  r.normativeVersion !== null && hasNormativeDatabase(r.pattern, r.normativeVersion);

export function markedResult(m: WithResult): MarkedResult {
  return {
    id: m.id,
    eye: m.result.eye,
    pattern: m.result.pattern,
    takenAt: m.result.takenAt,
    valid: thresholdResult(m.result),
    hasNormativeDatabase: resultHasNormativeDatabase(m.result),
  };
}

/** Progression points of a patient's results; the chart's own rules (valid, reliable, G or 24-2) filter them. */
export function progressionPoints(
  results: readonly WithResult[],
  unreliable: ReadonlySet<string>,
  meanDefect: (m: WithResult) => number | null,
): ProgressionPoint[] {
  return results.map((m) => ({
    measurementId: m.id,
    takenAt: m.result.takenAt,
    meanDefect: meanDefect(m),
    eye: m.result.eye,
    pattern: m.result.pattern,
    valid: thresholdResult(m.result),
    unreliable: unreliable.has(m.id),
    strategy: m.result.strategy,
    source: m.result.source ?? null,
  }));
}

/** What a result says of its source (core/analytics/series-sources.ts), with the result. */
const sourced = (m: WithResult) => ({ m, strategy: m.result.strategy, source: m.result.source ?? null });

/**
 * The results of one device and one strategy (issue 29): the page limits its results once, before the chart's points
 * and the progression analysis' series are built from them, so the chart, the GPA baseline, PoPLR and the VFI trend
 * all read the same series.
 */
export const limitResults = (results: readonly WithResult[], limit: SeriesLimit): WithResult[] =>
  limitSeries(results.map(sourced), limit).map((s) => s.m);

/** The devices and the strategies among the results (each once), for the limit's choices. */
export const resultDevices = (results: readonly WithResult[]): ResultDevice[] => seriesDevices(results.map(sourced));
export const resultStrategies = (results: readonly WithResult[]): ResultStrategy[] => seriesStrategies(results.map(sourced));

/** The results as the progression analysis reads them (core/analytics/progression/eye-progression.ts). */
export function seriesResults(results: readonly WithResult[], unreliable: ReadonlySet<string>, birthdate: string): SeriesResult[] {
  return results.map((m) => ({
    id: m.id,
    takenAt: m.result.takenAt,
    eye: m.result.eye,
    pattern: m.result.pattern,
    age: ageAtTest(birthdate, m.result.takenAt),
    thresholds: m.result.thresholds,
    normativeVersion: m.result.normativeVersion,
    valid: thresholdResult(m.result),
    unreliable: unreliable.has(m.id),
    strategy: m.result.strategy,
    source: m.result.source ?? null,
  }));
}

/** "Test duration m:s" (accounts seed §9). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** "Values to 2 decimals" (accounts seed §9); a dash where there is none. */
export const dB2 = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(2));

/** A catch-trial tally as "errors/presentations (rate %)". */
export function catchTrialText(t: { errors: number; presentations: number } | null | undefined): string {
  if (!t || t.presentations <= 0) return "–";
  return `${t.errors}/${t.presentations} (${Math.round((100 * t.errors) / t.presentations)} %)`;
}

/**
 * The normative database as shown: its name and version ("name · version"; older results without a version use the
 * default database, whose version carries its date); null when the result has none.
 */
export const normativeDatabaseText = (r: MeasurementResult): string | null =>
  resultHasNormativeDatabase(r) ? normativeDatabaseName(r.pattern, r.normativeVersion) : null;

/** Results by day, newest first, with each day's right eye before its left (the history's pairs). */
export function pairsByDay(
  results: readonly WithResult[],
): Array<{ day: string; right: WithResult[]; left: WithResult[]; other: WithResult[] }> {
  const sorted = [...results].sort((a, b) => b.result.takenAt.localeCompare(a.result.takenAt));
  const days: Array<{ day: string; right: WithResult[]; left: WithResult[]; other: WithResult[] }> = [];
  for (const m of sorted) {
    const day = m.result.takenAt.slice(0, 10);
    let entry = days.at(-1);
    if (!entry || entry.day !== day) days.push((entry = { day, right: [], left: [], other: [] }));
    (m.result.eye === Eye.Right ? entry.right : m.result.eye === Eye.Left ? entry.left : entry.other).push(m);
  }
  return days;
}

/** The earlier result of the same eye and pattern: the reference of the difference plot. */
export function previousOfSameKind(results: readonly WithResult[], current: WithResult): WithResult | null {
  let best: WithResult | null = null;
  for (const m of results) {
    if (m.id === current.id || m.result.eye !== current.result.eye || m.result.pattern !== current.result.pattern) continue;
    if (m.result.takenAt >= current.result.takenAt || !thresholdResult(m.result)) continue;
    if (!best || m.result.takenAt > best.result.takenAt) best = m;
  }
  return best;
}

export const isEsterman = (r: MeasurementResult) => r.pattern === Pattern.Esterman;
