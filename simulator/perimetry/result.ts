import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { normalSensitivity } from "../../core/analytics/pointwise.ts";
import { ageAtTest } from "../../core/analytics/result-analysis.ts";
import { isScreening } from "../../core/analytics/seen.ts";
import { analyseStoredResult } from "../../core/analytics/stored-result.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { Strategy } from "../../core/model/enums.ts";
import type { PerimetryOutcome, PerimetryTestSpec } from "./engine.ts";
import { sorsCount } from "./strategy-plan.ts";

// The complete result a headset uploads (core/model MeasurementResult), from an engine outcome. Where the patient's
// birthdate is known and a normative database exists for the pattern (24-2, 10-2, 30-2, G), the result is scored against
// it (the current version, the patient's age in completed years at the test, as the dashboard counts it); elsewhere its
// normal values are the simulator's hill of vision (hill.ts) under SIMULATED_NORMATIVE_VERSION, which the dashboard
// knows no tables for. Either way the stored indices (MS, MD, sLV, VFI) are core/analytics' own analysis of the stored
// thresholds and normals, so the measurement list (stored values) and the result page (recomputed) print the same.

/** The device's normative version string for simulated results scored on its hill of vision. */
export const SIMULATED_NORMATIVE_VERSION = "isopter-sim-hill-1";
export const BACKGROUND_ASB = 31.5;

export interface ResultContext {
  readonly measurementId: string;
  readonly patientId: string;
  readonly takenAt: string;
  readonly deviceAlias: string | null;
  /** true passed, false failed, null not tested. */
  readonly gazeCalibration: boolean | null;
  /** The patient's birthdate (ISO date), when the device knows it: the result is then scored with the normative database. */
  readonly patientBirthdate?: string | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Reliability score, ours: 100 times one less the mean of the false-positive, false-negative and fixation-loss rates,
 * each as a share of its common limit (FP 15 %, FN 33 %, FL 20 %; analytics.md "Reliability") and capped at 1. */
export const reliabilityScore = (fp: number, fn: number, fl: number): number =>
  Math.round(100 * (1 - (Math.min(1, fp / 0.15) + Math.min(1, fn / 0.33) + Math.min(1, fl / 0.2)) / 3));

/**
 * A result's normal values and version: the normative database's at `age` (completed years) where one exists for the
 * pattern, else the given hill of vision. Blind-spot locations the tables leave out keep the hill's value.
 */
export function scoringNormals(
  pattern: MeasurementResult["pattern"],
  age: number | null,
  hill: readonly number[],
): { normValues: number[]; normativeVersion: string } {
  const tables = age === null || getPattern(pattern).binocular ? null : getNormativeDatabase(pattern, CURRENT_NORMATIVE_VERSION);
  if (!tables) return { normValues: [...hill], normativeVersion: SIMULATED_NORMATIVE_VERSION };
  const normal = normalSensitivity(tables, age!);
  return { normValues: hill.map((h, i) => round2(normal[i] ?? h)), normativeVersion: CURRENT_NORMATIVE_VERSION };
}

/**
 * The indices a result stores, from core/analytics' analysis of its thresholds, normals and normative version: the
 * values the result page recomputes (2 decimals, "mean sensitivity below 0 shows 0", VFI a rounded integer), so the
 * two never disagree. Binocular patterns (Esterman) have no defects: MD and sLV are null, the Esterman score is set.
 * A screening (supra-threshold, one level) measures no thresholds, only the level seen or 0: no MD, sLV or VFI either.
 * A result that is not valid (core/analytics/stored-result.ts) keeps the indices it came with.
 */
export function withStoredIndices<R extends MeasurementResult>(r: R, age: number): R {
  const analysis = analyseStoredResult(r, age);
  if (analysis === null) return r; // not valid (a location without a value): nothing the result page would analyse either
  const d = analysis.display;
  const thresholds = !isScreening(r.strategy);
  return {
    ...r,
    defects: r.normValues ? r.thresholds.map((t, i) => round2(r.normValues![i]! - t)) : r.defects,
    meanSensitivity: d.meanSensitivity ?? 0,
    meanDefect: thresholds ? d.meanDefect : null,
    squareRootLossVariance: thresholds ? d.slv : null,
    vfi: thresholds ? d.vfi : null,
    estermanScore: analysis.estermanScore ?? r.estermanScore,
  };
}

export const toMeasurementResult = (outcome: PerimetryOutcome, spec: PerimetryTestSpec, ctx: ResultContext): MeasurementResult => {
  const sors = spec.strategy === Strategy.SORS || spec.strategy === Strategy.SORS_screening;
  const age = ctx.patientBirthdate ? ageAtTest(ctx.patientBirthdate, ctx.takenAt) : null;
  const { normValues, normativeVersion } = scoringNormals(spec.pattern, age, outcome.normalValues);
  return withStoredIndices(
    {
      measurementId: ctx.measurementId,
      patientId: ctx.patientId,
      takenAt: ctx.takenAt,
      eye: spec.eye,
      pattern: spec.pattern,
      strategy: spec.strategy,
      sorsStage: sors ? sorsCount(spec.strategy, spec.sorsStage) : null,
      stimulusSize: spec.stimulusSize ?? 2,
      stimuliShowtime: spec.stimuliShowtime,
      stimuliInterval: spec.stimuliUpdate,
      meanUpdateTime: outcome.meanUpdateTimeMs,
      presentations: outcome.presentations,
      examinationTimeInSeconds: Math.round(outcome.durationMs / 1000),
      maxIntensity: outcome.maxIntensity,
      thresholds: [...outcome.thresholds],
      defects: [],
      normValues,
      meanSensitivity: 0,
      meanDefect: null,
      squareRootLossVariance: null,
      vfi: null,
      falseNegatives: round2(outcome.falseNegatives),
      falsePositives: round2(outcome.falsePositives),
      fixationLosses: round2(outcome.fixationLosses),
      catchTrials: outcome.catchTrials,
      gazeTracking: outcome.gazeTracking
        ? { meanDistance: [...outcome.gazeTracking.meanDistance], fixationThreshold: outcome.gazeTracking.fixationThreshold }
        : null,
      estermanScore: outcome.estermanScore,
      reliabilityScore: reliabilityScore(outcome.falsePositives, outcome.falseNegatives, outcome.fixationLosses),
      normativeVersion,
      gazeCalibration: ctx.gazeCalibration,
      background: BACKGROUND_ASB,
      deviceAlias: ctx.deviceAlias,
    },
    age ?? 0,
  );
};
