import type { MeasurementResult } from "../model/measurement-result.ts";
import { getPattern, patternsWithGeometry } from "./patterns.ts";
import { analyseResult, type ResultAnalysis, type ResultInput } from "./result-analysis.ts";
import { isScreening } from "./seen.ts";

// A stored result (core/model MeasurementResult) on its way into the analysis: one reading for the web's result page,
// the CLI's export and the indices the simulator's headsets store, so the three never disagree on what is analysed.

/**
 * A result is valid when it has a value for every location of its pattern (a test stopped early or sent with a
 * broken location list is not): only valid results are analysed, may be baseline and appear on the progression chart.
 */
export function resultValid(r: Pick<MeasurementResult, "pattern" | "thresholds">): boolean {
  if (!patternsWithGeometry.includes(r.pattern)) return false;
  return r.thresholds.length === getPattern(r.pattern).points.length && r.thresholds.every((t) => Number.isFinite(t));
}

/**
 * A valid result that measured thresholds: not a screening (supra-threshold, one level), whose values are the level
 * seen or 0. Only these can be a baseline, a point of the mean-defect chart, or the reference of a difference plot:
 * a screening's "mean defect" measures nothing a threshold test's can be compared with.
 */
export const thresholdResult = (r: Pick<MeasurementResult, "pattern" | "thresholds" | "strategy">): boolean =>
  resultValid(r) && !isScreening(r.strategy);

/** What the analysis reads of a stored result, for a patient `age` years old on the test day (ageAtTest). */
export const analysisInput = (r: MeasurementResult, age: number): ResultInput => ({
  pattern: r.pattern,
  eye: r.eye,
  age,
  thresholds: r.thresholds,
  normativeVersion: r.normativeVersion,
  catchTrials: r.catchTrials,
  gazeTracking: r.gazeTracking,
  normValues: r.normValues,
  strategy: r.strategy,
});

/** The full analysis of a stored result for a patient `age` years old on the test day; null when it is not valid. */
export const analyseStoredResult = (r: MeasurementResult, age: number): ResultAnalysis | null =>
  resultValid(r) ? analyseResult(analysisInput(r, age)) : null;
