import {
  Eye,
  Pattern,
  Showtime,
  StimulusSize,
  Strategy,
  type Eye as EyeT,
  type Pattern as PatternT,
  type Strategy as StrategyT,
} from "../../../core/model/enums.ts";
import { isSorsStrategy } from "../../../core/rules/pattern-options.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { getPattern, pointsForEye } from "../../../core/analytics/patterns.ts";
import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import { ageAtTest } from "../../../core/analytics/result-analysis.ts";
import { withStoredIndices } from "../../perimetry/result.ts";

// Realistic demo result histories (issue #4 item 7: "realistic fixtures" until results come from the perimetry
// engine). Thresholds are the normative database's age-corrected normal per location, minus a defect that follows a
// chosen course (healthy, a glaucomatous superior arcuate defect that deepens over the years, or advanced loss), plus
// test-retest noise that grows where sensitivity is low. Deterministic for a seed. The stored indices are
// core/analytics' own (withStoredIndices), at the patient's age in completed years, as the result page recomputes them.

export type Course = "healthy" | "early-glaucoma" | "advanced-glaucoma";

/** Small deterministic generator (mulberry32). */
export const seeded = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, normal };
};

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Loss in dB at a location (x, y right-eye degrees) after `years` of the course. */
export const defectAt = (course: Course, x: number, y: number, years: number): number => {
  if (course === "healthy") return 0;
  const r = Math.hypot(x, y);
  // Superior arcuate (Bjerrum) region nasal-above the blind spot, the classic early glaucomatous loss.
  const arcuate = y > 0 && r > 8 && r < 25 && x < 12 ? 1 : 0;
  const nasalStep = y > 0 && x < -15 ? 1 : 0;
  if (course === "early-glaucoma") return arcuate * (4 + 2.2 * years) + nasalStep * (2 + 1.5 * years);
  const inferior = y < 0 && r > 10 && x < 10 ? 1 : 0;
  return arcuate * (18 + 1.5 * years) + nasalStep * 20 + inferior * (6 + 2.5 * years);
};

export interface DemoResultInput {
  readonly measurementId: string;
  readonly patientId: string;
  readonly takenAt: string;
  readonly ageYears: number;
  readonly yearsIntoCourse: number;
  readonly course: Course;
  readonly eye: EyeT;
  readonly pattern: PatternT;
  readonly strategy: StrategyT;
  readonly deviceAlias: string;
  readonly seed: number;
  /** The patient's birthdate; when absent, the one `ageYears` before `takenAt`. Normals use the completed years. */
  readonly birthdate?: string;
}

const dayMs = 86400_000;

/** The birthdate of a demo input, given or derived from its age at the test. */
export const birthdateOf = (i: DemoResultInput): string =>
  i.birthdate ?? new Date(Date.parse(i.takenAt) - i.ageYears * 365.25 * dayMs).toISOString().slice(0, 10);

export const demoResult = (i: DemoResultInput): MeasurementResult => {
  const rng = seeded(i.seed);
  const geometry = getPattern(i.pattern);
  const points = pointsForEye(geometry, i.eye);
  const norms = getNormativeDatabase(i.pattern, CURRENT_NORMATIVE_VERSION);
  const blind = new Set(geometry.blindSpotIndices);
  const age = ageAtTest(birthdateOf(i), i.takenAt);
  const normValues = points.map((p, k) => {
    const intercept = norms?.intercept[k];
    const slope = norms?.slope[k];
    if (intercept !== null && intercept !== undefined && slope !== null && slope !== undefined) return round2(intercept + slope * age);
    return round1(33 - 0.25 * Math.hypot(p.x, p.y) - 0.07 * (i.ageYears - 20)); // hill of vision when no table
  });
  const mirror = i.eye === Eye.Left ? -1 : 1;
  const thresholds = points.map((p, k) => {
    if (blind.has(k)) return 0;
    const expected = normValues[k]! - defectAt(i.course, p.x * mirror, p.y, i.yearsIntoCourse);
    const noise = rng.normal() * (expected > 20 ? 1.2 : 2.8);
    return Math.max(0, Math.min(40, Math.round(expected + noise)));
  });
  const defects = thresholds.map((t, k) => (blind.has(k) ? 0 : round1(normValues[k]! - t)));
  const counted = defects.filter((_, k) => !blind.has(k));
  const presentations = Math.round(counted.length * (i.strategy === Strategy.Normal ? 5.5 : 3.2) + 20);
  const fp = Math.round(rng.next() * 2);
  const fn = Math.round(rng.next() * (i.course === "healthy" ? 1 : 3));
  const fl = Math.round(rng.next() * 2);
  const meanDistance = Array.from({ length: 120 }, () => round1(Math.abs(rng.normal()) * 0.9));
  return withStoredIndices(
    {
      measurementId: i.measurementId,
      patientId: i.patientId,
      takenAt: i.takenAt,
      eye: i.eye,
      pattern: i.pattern,
      strategy: i.strategy,
      sorsStage: i.strategy === Strategy.SORS ? 36 : null,
      stimulusSize: isSorsStrategy(i.strategy) ? StimulusSize.III_ADAPTIVE : StimulusSize.III,
      stimuliShowtime: Showtime.Ms200,
      stimuliInterval: 2000,
      meanUpdateTime: 1450 + Math.round(rng.next() * 300),
      presentations,
      examinationTimeInSeconds: Math.round(presentations * 1.55),
      maxIntensity: Math.round(10000 / Math.PI),
      thresholds,
      defects,
      normValues: norms ? normValues : null,
      meanSensitivity: 0,
      meanDefect: null,
      squareRootLossVariance: null,
      vfi: null,
      falseNegatives: fn,
      falsePositives: fp,
      fixationLosses: fl,
      catchTrials: {
        falseNegative: { errors: fn, presentations: 8 },
        falsePositive: { errors: fp, presentations: 8 },
        blindSpot: { errors: fl, presentations: 10 },
      },
      gazeTracking: { meanDistance, fixationThreshold: 3 },
      estermanScore: null,
      reliabilityScore: Math.max(0, 100 - 8 * (fp + fn + fl)),
      normativeVersion: norms ? CURRENT_NORMATIVE_VERSION : null,
      gazeCalibration: true,
      background: 31.5,
      deviceAlias: i.deviceAlias,
    },
    age,
  );
};

export { Pattern };
