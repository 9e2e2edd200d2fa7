import { getPattern, statisticalIndices } from "../../core/analytics/patterns.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { Strategy } from "../../core/model/enums.ts";
import type { PerimetryOutcome, PerimetryTestSpec } from "./engine.ts";
import { sorsCount } from "./strategy-plan.ts";

// The complete result a headset uploads (core/model MeasurementResult), from an engine outcome. Normal values are the
// simulator's hill of vision (hill.ts), so the Octopus-style indices here (defect = normal - measured, MS, MD, sLV) are
// the device's own; the dashboard's normative analyses recompute from the thresholds. VFI needs a normative database
// with probability limits: left null.

/** The device's normative version string for simulated results. */
export const SIMULATED_NORMATIVE_VERSION = "isopter-sim-hill-1";
export const BACKGROUND_ASB = 31.5;

export interface ResultContext {
  readonly measurementId: string;
  readonly patientId: string;
  readonly takenAt: string;
  readonly deviceAlias: string | null;
  /** true passed, false failed, null not tested. */
  readonly gazeCalibration: boolean | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Reliability score, ours: 100 times one less the mean of the false-positive, false-negative and fixation-loss rates,
 * each as a share of its common limit (FP 15 %, FN 33 %, FL 20 %; analytics.md "Reliability") and capped at 1. */
export const reliabilityScore = (fp: number, fn: number, fl: number): number =>
  Math.round(100 * (1 - (Math.min(1, fp / 0.15) + Math.min(1, fn / 0.33) + Math.min(1, fl / 0.2)) / 3));

export const toMeasurementResult = (outcome: PerimetryOutcome, spec: PerimetryTestSpec, ctx: ResultContext): MeasurementResult => {
  const geometry = getPattern(spec.pattern);
  const used = statisticalIndices(geometry);
  const defects = outcome.thresholds.map((t, i) => round2(outcome.normalValues[i]! - t));
  const n = used.length;
  const ms = used.reduce((s, i) => s + Math.max(0, outcome.thresholds[i]!), 0) / n;
  const md = used.reduce((s, i) => s + defects[i]!, 0) / n;
  const lv = n > 1 ? used.reduce((s, i) => s + (defects[i]! - md) ** 2, 0) / (n - 1) : 0;
  const sors = spec.strategy === Strategy.SORS || spec.strategy === Strategy.SORS_screening;
  return {
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
    defects,
    normValues: [...outcome.normalValues],
    meanSensitivity: round2(ms),
    meanDefect: round2(md),
    squareRootLossVariance: round2(Math.sqrt(lv)),
    vfi: null,
    falseNegatives: round2(outcome.falseNegatives),
    falsePositives: round2(outcome.falsePositives),
    fixationLosses: round2(outcome.fixationLosses),
    catchTrials: outcome.catchTrials,
    gazeTracking: outcome.gazeTracking ? { meanDistance: [...outcome.gazeTracking.meanDistance], fixationThreshold: outcome.gazeTracking.fixationThreshold } : null,
    estermanScore: outcome.estermanScore,
    reliabilityScore: reliabilityScore(outcome.falsePositives, outcome.falseNegatives, outcome.fixationLosses),
    normativeVersion: SIMULATED_NORMATIVE_VERSION,
    gazeCalibration: ctx.gazeCalibration,
    background: BACKGROUND_ASB,
    deviceAlias: ctx.deviceAlias,
  };
};
