import { Eye } from "../../core/model/enums.ts";
import type { PatternGeometry, PatternPoint } from "../../core/analytics/patterns.ts";
import { blindSpotLoss, hillOfVision } from "./hill.ts";
import { type HensonVariability, probabilitySeen } from "./fos.ts";
import type { Rng } from "./random.ts";
import type { PatientProfile } from "./profiles.ts";

// A simulated patient sitting one test: the true field at the pattern's points, the frequency-of-seeing response with
// false positives and negatives, response times (longer near threshold, McKendrick et al. 2014) and gaze with fixation
// losses. Every random draw comes from the patient's own seeded generator.

/** Gaze drift beyond this many degrees counts as off fixation (our choice; the result's fixationThreshold). */
export const FIXATION_THRESHOLD_DEG = 3;

export interface Response {
  readonly seen: boolean;
  /** ms from stimulus onset; null when nothing was pressed. */
  readonly responseTime: number | null;
}

export interface GazeSample {
  /** Distance of the gaze from the fixation target in degrees; -1 when the tracker could not measure (blink). */
  readonly distance: number;
  /** Fixation lost during this presentation. */
  readonly lost: boolean;
}

export interface SimulatedPatient {
  readonly profile: PatientProfile;
  readonly age: number;
  /** True thresholds in dB at the pattern's points (index order); below 0 means not seen even at 0 dB. */
  readonly trueThresholds: readonly number[];
  /** Where the gaze is during the next presentation. */
  gaze(): GazeSample;
  /** Response to a stimulus at pattern location `index` (or a catch point), given the gaze during it. */
  respondAt(index: number, level: number, gaze: GazeSample): Response;
  /** Response to a stimulus at the physiological blind spot (Heijl-Krakau catch trial). */
  respondAtBlindSpot(level: number, gaze: GazeSample): Response;
  /** Response when nothing is shown (false-positive catch trial). */
  respondToNothing(): Response;
}

export interface PatientOptions {
  readonly geometry: PatternGeometry;
  readonly eye: Eye;
  /** Draws the true field. */
  readonly rng: Rng;
  /** Draws responses and gaze (default: continues `rng`); separate so one patient can sit many different tests. */
  readonly responseRng?: Rng;
}

/** The true field of one eye (right-eye orientation, as indices use), with the profile's loss and individual variation. */
const monocularField = (profile: PatientProfile, points: readonly PatternPoint[], leftEye: boolean, rng: Rng): number[] => {
  const loss = profile.loss(points, leftEye, rng);
  const height = rng.normal() * profile.globalSd;
  return points.map((p, i) => hillOfVision(p, profile.age) + height + rng.normal() * profile.localSd - blindSpotLoss(p) - loss[i]!);
};

export const createPatient = (profile: PatientProfile, options: PatientOptions): SimulatedPatient => {
  const { geometry } = options;
  const points = geometry.points;
  const fieldRng = options.rng;
  // Binocular (Esterman): each point is seen by the better eye; the left eye sees (x, y) at its mirrored point (-x, y).
  const trueThresholds = geometry.binocular
    ? (() => {
        const right = monocularField(profile, points, false, fieldRng);
        const left = monocularField(
          profile,
          points.map((p) => ({ x: -p.x, y: p.y })),
          true,
          fieldRng,
        );
        return right.map((r, i) => Math.max(r, left[i]!));
      })()
    : monocularField(profile, points, options.eye === Eye.Left, fieldRng);
  const rng = options.responseRng ?? fieldRng;
  const v: HensonVariability = profile.variability;

  const responseTime = (level: number, t: number): number => {
    // Brighter than threshold by many dB: quick; near threshold: up to ~300 ms slower.
    const margin = Math.max(0, t - level);
    const mean = profile.responseTimeMs + 300 * Math.exp(-margin / 4);
    return Math.round(Math.min(1500, Math.max(150, mean * Math.exp(0.18 * rng.normal()))));
  };
  const guessTime = () => Math.round(rng.uniform(250, 1000));
  const respond = (level: number, t: number): Response => {
    // Split the FOS into a guess (false positive), a lapse (false negative) and a genuine detection.
    const pSeen = probabilitySeen(level, t, profile.fpr, profile.fnr, v);
    if (!rng.chance(pSeen)) return { seen: false, responseTime: null };
    const pGenuine = pSeen - profile.fpr;
    return rng.chance(pGenuine / pSeen) ? { seen: true, responseTime: responseTime(level, t) } : { seen: true, responseTime: guessTime() };
  };
  // A stimulus shown while fixation is lost lands elsewhere on the retina: use another location's threshold.
  const displaced = (): number => trueThresholds[rng.int(trueThresholds.length)]!;
  const blindSpotPoint: PatternPoint = { x: 15, y: -1.5 };

  return {
    profile,
    age: profile.age,
    trueThresholds,
    gaze: () => {
      if (rng.chance(profile.gazeLostRate ?? 0.01)) return { distance: -1, lost: rng.chance(profile.fixationLossRate) };
      const lost = rng.chance(profile.fixationLossRate);
      const distance = lost ? rng.uniform(FIXATION_THRESHOLD_DEG + 1, 12) : Math.abs(rng.normal() * 0.6) + Math.abs(rng.normal() * 0.4);
      return { distance: Math.round(distance * 100) / 100, lost };
    },
    respondAt: (index, level, gaze) => respond(level, gaze.lost ? displaced() : trueThresholds[index]!),
    respondAtBlindSpot: (level, gaze) =>
      respond(
        level,
        gaze.lost ? hillOfVision(blindSpotPoint, profile.age) : hillOfVision(blindSpotPoint, profile.age) - blindSpotLoss(blindSpotPoint),
      ),
    respondToNothing: () => (rng.chance(profile.fpr) ? { seen: true, responseTime: guessTime() } : { seen: false, responseTime: null }),
  };
};
