import type { Pattern } from "../../../model/enums.ts";
import { getNormativeDatabase } from "../../normative/registry.ts";
import type { NormativeTables } from "../../normative/tables.ts";
import { getPattern } from "../../patterns.ts";
import { analyseSeries, type SeriesAnalysis } from "../../series-analysis.ts";
import { isoDateToDays, linearRegression } from "../linear-regression.ts";
import { MIN_SLOPE_RESULTS, MIN_SLOPE_SPAN_DAYS } from "../md-slope.ts";
import { cigtsProgression } from "./cigts-progression.ts";
import { clusterTrend } from "./cluster-trend.ts";
import { eventsCriterion } from "./events-criterion.ts";
import { mdSlopeCriterion } from "./md-slope-criterion.ts";
import { plrNouri2012 } from "./plr-nouri-2012.ts";
import { plrThreeOmitting } from "./plr-three-omitting.ts";
import { POPLR_MIN_VISITS, poplrCriterion } from "./poplr-criterion.ts";
import { eyeReading, type EyeReading } from "./reading.ts";
import { schell2014 } from "./schell-2014.ts";
import { type CriteriaSeries, trendRefusal, twoSidedP } from "./series.ts";
import { METHOD_IDS, type MethodId, type MethodOutcome, type NotApplicableReason, notApplicable } from "./verdict.ts";
import { vfiTrend } from "./vfi-trend.ts";

/**
 * Every published progression criterion on one eye's series of one pattern (issue 30), in METHOD_IDS order, and one
 * reading of them (reading.ts). The series is analysed once (series-analysis.ts: deviations, global indices, the
 * regressions, PoPLR on TD, the events) and every criterion reads that analysis: a benchmark runs them all on 10,000
 * eyes. Bad input gets "not applicable" from every method with the reason, checked in this order: visits of another
 * pattern (a threshold count that is not the pattern's), a location not measured, fewer than 3 visits, no normative
 * database; then each method's own needs (its patterns, visits, follow-up, rules).
 */
export interface CriteriaVisit {
  /** ISO date (yyyy-mm-dd...) of the test. */
  readonly date: string;
  readonly age: number;
  /** Sensitivities in pattern order (blind spots may be null). */
  readonly thresholds: ReadonlyArray<number | null>;
}

export interface SeriesCriteriaOptions {
  readonly normativeVersion?: string | null;
  /** PoPLR's permutations above 7 visits (default 5040, as visualFields) and their seed (default 1). */
  readonly nperm?: number;
  readonly seed?: number;
}

export interface SeriesCriteria {
  /** One outcome per METHOD_IDS entry, in that order. */
  readonly methods: MethodOutcome[];
  readonly reading: EyeReading;
}

/** Each criterion by its id, reading the shared analysis (the benchmark times them one by one). */
export const CRITERIA: Record<MethodId, (series: CriteriaSeries) => MethodOutcome> = {
  events: eventsCriterion,
  poplr: poplrCriterion,
  "md-slope": mdSlopeCriterion,
  "vfi-trend": vfiTrend,
  cigts: cigtsProgression,
  "plr-nouri-2012": plrNouri2012,
  "plr-three-omitting": plrThreeOmitting,
  "schell-2014": schell2014,
  "cluster-trend": (s) => clusterTrend(s.pattern, s.analysis.years, s.analysis.visits.td),
};

/** Every method not applicable for one reason. */
export function criteriaNotApplicable(reason: NotApplicableReason): SeriesCriteria {
  const methods = METHOD_IDS.map((id) => notApplicable(id, reason));
  return { methods, reading: eyeReading(methods, null) };
}

/** Why no method can read the visits at all (the checks above), or null. */
export function seriesRefusal(pattern: Pattern, visits: readonly CriteriaVisit[]): NotApplicableReason | null {
  const geometry = getPattern(pattern);
  const blind = new Set(geometry.blindSpotIndices);
  if (visits.some((v) => v.thresholds.length !== geometry.points.length)) return "mixed-patterns";
  for (const v of visits)
    for (let i = 0; i < v.thresholds.length; i++) {
      const t = v.thresholds[i];
      if (!blind.has(i) && (t === null || t === undefined || !Number.isFinite(t))) return "missing-locations";
    }
  return visits.length < 3 ? "too-few-visits" : null;
}

/** The criteria of an analysis already made (eye-progression.ts shares its own); `analysis` needs PoPLR on TD. */
export function criteriaOfAnalysis(pattern: Pattern, nv: NormativeTables, analysis: SeriesAnalysis): SeriesCriteria {
  if (!analysis.visits) return criteriaNotApplicable("no-normative-database");
  const series: CriteriaSeries = { pattern, nv, analysis: { ...analysis, visits: analysis.visits } };
  const methods = METHOD_IDS.map((id) => CRITERIA[id](series));
  let psd: { slopePerYear: number; p: number } | null = null;
  if (trendRefusal(series, MIN_SLOPE_RESULTS) === null) {
    const fit = linearRegression(
      analysis.years,
      analysis.visits.global.map((g) => g.psd),
    );
    psd = { slopePerYear: fit.slope, p: twoSidedP(fit) };
  }
  return { methods, reading: eyeReading(methods, psd) };
}

export function seriesCriteria(pattern: Pattern, visits: readonly CriteriaVisit[], options: SeriesCriteriaOptions = {}): SeriesCriteria {
  const refusal = seriesRefusal(pattern, visits);
  if (refusal) return criteriaNotApplicable(refusal);
  const nv = getNormativeDatabase(pattern, options.normativeVersion);
  if (!nv) return criteriaNotApplicable("no-normative-database");
  const days = visits.map((v) => isoDateToDays(v.date));
  const span = Math.max(...days) - Math.min(...days);
  const analysis = analyseSeries(pattern, visits, {
    normativeVersion: options.normativeVersion ?? null,
    // PoPLR only where its criterion reads it, and only on TD: its permutations are most of the time.
    poplr: visits.length >= POPLR_MIN_VISITS && span >= MIN_SLOPE_SPAN_DAYS,
    poplrOn: ["td"],
    ...(options.nperm !== undefined && { nperm: options.nperm }),
    ...(options.seed !== undefined && { seed: options.seed }),
  });
  return criteriaOfAnalysis(pattern, nv, analysis);
}

export { cigtsProgression, CIGTS_PROGRESSION_THRESHOLD, CIGTS_CONFIRMATIONS, CIGTS_MIN_VISITS } from "./cigts-progression.ts";
export type { CigtsProgressionDetail } from "./cigts-progression.ts";
export { clusterTrend } from "./cluster-trend.ts";
export type { ClusterTrendDetail, ClusterSlope } from "./cluster-trend.ts";
export { eventsCriterion, EVENTS_MIN_VISITS } from "./events-criterion.ts";
export type { EventsDetail } from "./events-criterion.ts";
export { mdSlopeCriterion, MD_SLOPE_ALPHA } from "./md-slope-criterion.ts";
export type { MdSlopeDetail } from "./md-slope-criterion.ts";
export { plrNouri2012, locationChange, PLR_RATE_DB_PER_YEAR, PLR_P, PLR_MARGIN, PLR_NOURI_MIN_VISITS } from "./plr-nouri-2012.ts";
export type { PlrDetail } from "./plr-nouri-2012.ts";
export { plrThreeOmitting, threeOmittingFits, PLR_THREE_OMITTING_MIN_VISITS } from "./plr-three-omitting.ts";
export { poplrCriterion, POPLR_ALPHA, POPLR_MIN_VISITS } from "./poplr-criterion.ts";
export type { PoplrDetail } from "./poplr-criterion.ts";
export { eyeReading, READING_MIN_METHODS, PD_METHODS, TD_METHODS } from "./reading.ts";
export type { EyeReading, LossPattern } from "./reading.ts";
export { schell2014, SCHELL_THRESHOLD_DB, SCHELL_MIN_VISITS } from "./schell-2014.ts";
export type { SchellDetail } from "./schell-2014.ts";
export type { CriteriaSeries } from "./series.ts";
export { vfiTrend, VFI_MIN_EXAMS, VFI_MIN_YEARS, VFI_PROJECTION_YEARS, VFI_MAX_CONFIDENCE_LIMIT } from "./vfi-trend.ts";
export type { VfiTrendDetail, VfiProjection } from "./vfi-trend.ts";
export { METHOD_IDS, notApplicable } from "./verdict.ts";
export type { MethodId, MethodOutcome, NotApplicableReason, Verdict } from "./verdict.ts";
