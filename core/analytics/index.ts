/**
 * Visual-field analytics: the public surface for web, CLI, plots and exports.
 * Everything is pure (no I/O); normative tables are compiled in (normative/generated, built by scripts/build-norms.ts).
 * Numbers follow visualFields 1.0.8 (Marín-Franch & Swanson, Apache-2.0) and match its outputs on the SUNY-IU data
 * (tests/analytics/reference.test.ts).
 */
export { getPattern, pointsForEye, statisticalIndices, patternsWithGeometry, blindSpotCatchPoint } from "./patterns.ts";
export type { PatternGeometry, PatternPoint } from "./patterns.ts";

export {
  DEFAULT_NORMATIVE_VERSION,
  CURRENT_NORMATIVE_VERSION,
  AGE_LINEAR_NORMATIVE_VERSION,
  FULL_FIELD_NORMATIVE_VERSION,
  normativeVersions,
  effectiveNormativeVersion,
  getNormativeDatabase,
  hasNormativeDatabase,
  normativeDatabaseName,
} from "./normative/registry.ts";
export { lutProbabilities, globalIndexNames } from "./normative/tables.ts";
export type { NormativeTables, ProbabilityLevel, GlobalIndexName, LocationVector } from "./normative/tables.ts";

export { analyseResult, ageAtTest } from "./result-analysis.ts";
export type { ResultInput, ResultAnalysis, NormativeAnalysis, ResultDisplay } from "./result-analysis.ts";
export { analyseSeries } from "./series-analysis.ts";
export type { SeriesVisit, SeriesOptions, SeriesAnalysis } from "./series-analysis.ts";

export { normalSensitivity, totalDeviation, generalHeight, patternDeviation, probabilityLevel, probabilityMap } from "./pointwise.ts";
export { globalIndices, globalLevels, globalLevel, humphreyMdPsd } from "./global-indices.ts";
export type { GlobalIndices } from "./global-indices.ts";
export { visualFieldIndex, vfiWeight } from "./vfi.ts";
export { glaucomaHemifieldTest, ghtSectors, ghtPointScore } from "./ght.ts";
export type { GhtOutcome, GhtResult } from "./ght.ts";
export { octopusIndices, bebieCurve, defects, percentDefect, defectLabel, meanSensitivityForDisplay, roundTo } from "./octopus.ts";
export type { OctopusIndices } from "./octopus.ts";
export { estermanScore } from "./esterman.ts";
export * from "./binocular.ts";
export * from "./stages/index.ts";
export { reliability, catchTrialRate, RELIABILITY_LIMITS } from "./reliability.ts";
export type { Reliability, CatchTrials, CatchTrialCount } from "./reliability.ts";
export { gazeSummary, gazeScaleMax, GAZE_NOT_MEASURED, GAZE_PRINT_MAX_SAMPLES } from "./gaze.ts";
export type { GazeSummary } from "./gaze.ts";

export { mdSlope, isChartable, inWindow, PROGRESSION_WINDOWS, PROGRESSION_PATTERNS } from "./progression/md-slope.ts";
export type { ProgressionPoint, ProgressionWindow, MdSlope, MdSlopeOptions } from "./progression/md-slope.ts";
export {
  toggleBaseline,
  toggleUnreliable,
  followsBaseline,
  baselineToggleState,
  noBaselines,
} from "./progression/baseline.ts";
export type { BaselineIds, MarkedResult, BaselineToggleState } from "./progression/baseline.ts";
export { linearRegression, pointwiseRegression, yearsSinceFirst, isoDateToDays } from "./progression/linear-regression.ts";
export type { Regression } from "./progression/linear-regression.ts";
export { poplr, POPLR_EXACT_MAX_VISITS, POPLR_DEFAULT_PERMUTATIONS } from "./progression/poplr.ts";
export type { PoplrResult, PoplrOptions } from "./progression/poplr.ts";
export { eventAnalysis, deteriorationLimit, testRetestSd } from "./progression/events.ts";
export type { EventAnalysis, EventStatus } from "./progression/events.ts";

export { analyseCsvText, analyseRows, analyseSeriesRows, patternForLocationCount } from "./analyse-csv.ts";
export type { RowOutput, SeriesOutput } from "./analyse-csv.ts";
export { parseVisualFieldsCsv, CsvError } from "./visualfields-csv.ts";
export type { VisualFieldRow } from "./visualfields-csv.ts";
export { studentTCdf } from "./statistics/student-t.ts";
