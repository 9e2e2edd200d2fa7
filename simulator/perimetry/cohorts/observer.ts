import { getPattern } from "../../../core/analytics/patterns.ts";
import type { Strategy } from "../../../core/model/enums.ts";
import { HENSON, type HensonVariability } from "../fos.ts";
import { type FollowUp, cohortById } from "./cohorts.ts";
import { COHORT_STRATEGY, runVisitTest } from "./simulate.ts";
import { COHORT_PATTERN, cohortEye, patientAtVisit } from "./true-field.ts";

// The cohorts' observer must vary from test to test as patients do. Published: "When sensitivity was 30 dB ... The
// average SD was 1.54 dB at the four most central locations, versus 1.74 dB at the most peripheral locations. When
// sensitivity was 25 dB ... 2.36 dB at the four central locations, versus 2.24 dB at the most peripheral locations"
// (Gardiner SK, "Differences in the relation between perimetric sensitivity and variability between locations across
// the visual field", IOVS 2018;59(8):3667-3674, PMC6054428): the SD of one measurement about the true sensitivity.
// We measure the same of the strategy run by the observer: each cohort eye's first visit tested twice with independent
// answers, SD = sqrt(mean((m1 - m2)^2 / 2)) over the locations whose true sensitivity lies within 1 dB of the bin.

export interface PublishedSd {
  readonly sensitivity: number;
  readonly low: number;
  readonly high: number;
}
export const GARDINER_2018_SD: readonly PublishedSd[] = [
  { sensitivity: 30, low: 1.54, high: 1.74 },
  { sensitivity: 25, low: 2.24, high: 2.36 },
];
/** Bins printed beside the published ones, to show the rise below 25 dB. */
export const RETEST_BINS = [35, 30, 25, 20, 15, 10] as const;

export interface RetestSd {
  readonly sensitivity: number;
  /** null when no location fell in the bin. */
  readonly sd: number | null;
  readonly locations: number;
}

/** Pointwise test-retest SD by true sensitivity of `eyes` stable cohort eyes, each tested twice at its first visit. */
export const retestSd = (
  followUp: FollowUp,
  variability: HensonVariability,
  eyes: number,
  strategy: Strategy = COHORT_STRATEGY,
): RetestSd[] => {
  const stable = cohortById("stable");
  const blind = new Set(getPattern(COHORT_PATTERN).blindSpotIndices);
  const sums = RETEST_BINS.map(() => ({ ss: 0, n: 0 }));
  for (let i = 0; i < eyes; i++) {
    const eye = cohortEye(followUp, i);
    const [a, b] = [0, 1].map((r) => {
      const patient = patientAtVisit(stable, eye, followUp, 0, variability, `${eye.seed}/retest/${r}`);
      return { truth: patient.trueThresholds, measured: runVisitTest(eye.eye, patient, `${eye.seed}/retest-test/${r}`, strategy) };
    });
    a!.truth.forEach((t, k) => {
      if (blind.has(k)) return;
      const bin = RETEST_BINS.findIndex((c) => Math.abs(t - c) <= 1);
      if (bin < 0) return;
      const d = a!.measured[k]! - b!.measured[k]!;
      sums[bin]!.ss += (d * d) / 2;
      sums[bin]!.n++;
    });
  }
  return RETEST_BINS.map((sensitivity, k) => ({
    sensitivity,
    sd: sums[k]!.n ? Math.sqrt(sums[k]!.ss / sums[k]!.n) : null,
    locations: sums[k]!.n,
  }));
};

/** Henson's form (fos.ts) through the psychometric SDs at 30 and 25 dB: sigma(t) = min(6, exp(a t + b)). */
export const variabilityThrough = (sigma30: number, sigma25: number): HensonVariability => {
  const a = Math.log(sigma30 / sigma25) / 5;
  return { a, b: Math.log(sigma30) - 30 * a };
};

export interface Calibration {
  readonly variability: HensonVariability;
  /** Retest SDs of the strategy with the profiles' observer (Henson's glaucoma variability) and with the calibrated one. */
  readonly before: RetestSd[];
  readonly after: RetestSd[];
  readonly iterations: number;
}

const sdAt = (sds: readonly RetestSd[], s: number) => sds.find((x) => x.sensitivity === s)?.sd ?? Number.NaN;
const target = (p: PublishedSd) => (p.low + p.high) / 2;
/** The strategy's SD grows about as sigma^0.55 (measured over Henson's glaucoma sigma x 0.6-1): the update's power. */
const SD_PER_SIGMA_POWER = 0.55;

/**
 * Calibrates the observer's frequency-of-seeing slope so the strategy's pointwise test-retest SD meets the middle of
 * Gardiner's published ranges at 30 and 25 dB: from Henson's glaucoma variability, the psychometric SDs at 30 and 25 dB
 * are each scaled by (target / measured)^(1 / 0.55), a few times over the same seeded eyes; Henson's exponential form
 * carries them to other sensitivities. The best iteration is kept.
 */
export const calibrateObserver = (followUp: FollowUp, eyes: number, iterations = 6): Calibration => {
  const [p30, p25] = GARDINER_2018_SD as [PublishedSd, PublishedSd];
  const henson = (t: number) => Math.min(6, Math.exp(HENSON.glaucoma.a * t + HENSON.glaucoma.b));
  let sigma30 = henson(30),
    sigma25 = henson(25);
  const before = retestSd(followUp, HENSON.glaucoma, eyes);
  let sds = before;
  let best = { variability: HENSON.glaucoma as HensonVariability, sds: before, error: Number.POSITIVE_INFINITY };
  for (let k = 0; k < iterations; k++) {
    sigma30 *= (target(p30) / sdAt(sds, 30)) ** (1 / SD_PER_SIGMA_POWER);
    sigma25 *= (target(p25) / sdAt(sds, 25)) ** (1 / SD_PER_SIGMA_POWER);
    const variability = variabilityThrough(sigma30, sigma25);
    sds = retestSd(followUp, variability, eyes);
    const error = Math.abs(Math.log(sdAt(sds, 30) / target(p30))) + Math.abs(Math.log(sdAt(sds, 25) / target(p25)));
    if (error < best.error) best = { variability, sds, error };
  }
  return { variability: best.variability, before, after: best.sds, iterations };
};
