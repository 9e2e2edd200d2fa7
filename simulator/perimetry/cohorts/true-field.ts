import { type PatternGeometry, getPattern } from "../../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import { glaucomaLoss } from "../defects.ts";
import type { HensonVariability } from "../fos.ts";
import { type SimulatedPatient, createPatient } from "../patient.ts";
import { PROFILES, type PatientProfile } from "../profiles.ts";
import { createRng } from "../random.ts";
import type { Cohort, FollowUp } from "./cohorts.ts";

// One cohort eye's true field at each visit. The eye (age, laterality, individual hill, early glaucomatous defect)
// comes from the follow-up's seed and the eye's number alone, so every cohort follows the same eyes. At a visit
// t years on, the true threshold at a location is
//   hill(age + t) + individual offsets - blind spot - baseline defect + progression(t) - learning (first visit only),
// where hill is the age-normal hill of vision (hill.ts): a stable eye keeps its total deviation and ages normally.

export const COHORT_PATTERN = Pattern.P24_2;

export interface CohortEye {
  /** 0-based; eyes 2k and 2k + 1 are the right and left eye of patient k. */
  readonly index: number;
  readonly eye: Eye;
  readonly ageAtBaseline: number;
  /** Early glaucomatous loss at the first visit (dB per location, right-eye orientation as indices are). */
  readonly baselineDefect: readonly number[];
  /** The locations a localised cohort loses: the arcuate / nasal-step cluster of the eye's more damaged hemifield. */
  readonly cluster: readonly number[];
  /** Seeds the individual hill (the same at every visit) and each visit's answers. */
  readonly seed: string;
}

/**
 * The arcuate / nasal-step cluster of one hemifield (our definition): the 24-2 locations within 8-26 degrees of
 * fixation that lie from the nasal horizontal meridian round to 99 degrees (0.55 pi), i.e. the Bjerrum region and the
 * nasal step, where glaucomatous loss begins (defects.ts). 13 locations of 24-2 in either hemifield.
 */
export const arcuateCluster = (geometry: PatternGeometry, superior: boolean): number[] =>
  geometry.points.flatMap((p, i) => {
    if (p.y > 0 !== superior || geometry.blindSpotIndices.includes(i)) return [];
    const ecc = Math.hypot(p.x, p.y);
    const fromNasal = Math.atan2(Math.abs(p.y), -p.x);
    return ecc >= 8 && ecc <= 26 && fromNasal <= 0.55 * Math.PI ? [i] : [];
  });

/** The eye `index` of the follow-up: the same in every cohort. */
export const cohortEye = (followUp: FollowUp, index: number): CohortEye => {
  const geometry = getPattern(COHORT_PATTERN);
  const patientSeed = `${followUp.seed}/patient/${index >> 1}`;
  const [lo, hi] = followUp.ageRange;
  const ageAtBaseline = createRng(`${patientSeed}/age`).uniform(lo, hi);
  const seed = `${followUp.seed}/eye/${index}`;
  const baselineDefect = glaucomaLoss(geometry.points, "early", createRng(`${seed}/defect`));
  const lossIn = (superior: boolean) => baselineDefect.reduce((s, d, i) => s + (geometry.points[i]!.y > 0 === superior ? d : 0), 0);
  return {
    index,
    eye: index % 2 === 0 ? Eye.Right : Eye.Left,
    ageAtBaseline,
    baselineDefect,
    cluster: arcuateCluster(geometry, lossIn(true) >= lossIn(false)),
    seed,
  };
};

/** The years from the first visit to visit `k` (0-based). */
export const visitYears = (followUp: FollowUp, k: number): number => k * followUp.intervalYears;

/** Per location, how much lower than normal the eye reads at visit k: its defect, the cohort's loss and learning. */
export const lossAtVisit = (cohort: Cohort, eye: CohortEye, years: number, k: number): number[] => {
  const geometry = getPattern(COHORT_PATTERN);
  const cluster = new Set(eye.cluster);
  const progressing = (i: number) => cohort.kind === "diffuse" || (cohort.kind === "localised" && cluster.has(i));
  const ecc = geometry.points.map((p) => Math.hypot(p.x, p.y));
  const meanEcc = ecc.reduce((s, e) => s + e, 0) / ecc.length;
  return eye.baselineDefect.map(
    (d, i) =>
      d -
      (progressing(i) ? cohort.rateDbPerYear * years : 0) +
      (k === 0 && cohort.learningDb > 0 ? (cohort.learningDb * ecc[i]!) / meanEcc : 0),
  );
};

/**
 * The simulated patient sitting visit k: the early-glaucoma profile (profiles.ts) at the eye's age then, with the
 * cohort's false answers and the observer's frequency-of-seeing variability; the individual hill is drawn from the
 * eye's own seed, so it is the same at every visit, and the answers from the visit's.
 */
export const patientAtVisit = (
  cohort: Cohort,
  eye: CohortEye,
  followUp: FollowUp,
  k: number,
  variability: HensonVariability,
  answersSeed = `${eye.seed}/answers/${k}`,
): SimulatedPatient => {
  const years = visitYears(followUp, k);
  const loss = lossAtVisit(cohort, eye, years, k);
  const profile: PatientProfile = {
    ...PROFILES.early,
    age: eye.ageAtBaseline + years,
    fpr: cohort.fpr,
    fnr: cohort.fnr,
    variability,
    loss: () => loss,
  };
  return createPatient(profile, {
    geometry: getPattern(COHORT_PATTERN),
    eye: eye.eye,
    rng: createRng(`${eye.seed}/hill`),
    responseRng: createRng(answersSeed),
  });
};
