import type { PatternPoint } from "../../core/analytics/patterns.ts";
import { HENSON, type HensonVariability } from "./fos.ts";
import { glaucomaLoss, hemianopiaLoss } from "./defects.ts";
import type { Rng } from "./random.ts";

// Patient profiles. Error rates follow OPI's defaults (fpr 0.03, fnr 0.01) for a good observer and common limits for a
// poor one (FP > 15 %, FN > 33 %, FL > 20 %: shared/design/analytics.md "Reliability"). Seeded: the same profile and seed
// give the same patient.

export type ProfileName = "healthy" | "early" | "moderate" | "advanced" | "hemianopia" | "unreliable";

export interface PatientProfile {
  readonly name: ProfileName;
  readonly label: string;
  readonly age: number;
  readonly fpr: number;
  readonly fnr: number;
  /** Probability that fixation is off during a presentation. */
  readonly fixationLossRate: number;
  /** Share of gaze samples the tracker cannot measure (default 1 %; a slipped headset loses the eye far more). */
  readonly gazeLostRate?: number;
  /** Typical response time to a bright stimulus, ms. */
  readonly responseTimeMs: number;
  /** SD of the whole field's height about the age norm, dB. */
  readonly globalSd: number;
  /** SD of each location about the hill, dB. */
  readonly localSd: number;
  readonly variability: HensonVariability;
  /** dB of loss per point (right-eye orientation; leftEye tells which way the patient's left lies). */
  readonly loss: (points: readonly PatternPoint[], leftEye: boolean, rng: Rng) => number[];
}

const none = (points: readonly PatternPoint[]) => points.map(() => 0);

export const PROFILES: Record<ProfileName, PatientProfile> = {
  healthy: {
    name: "healthy",
    label: "Healthy",
    age: 60,
    fpr: 0.03,
    fnr: 0.01,
    fixationLossRate: 0.03,
    responseTimeMs: 420,
    globalSd: 1,
    localSd: 1,
    variability: HENSON.normal,
    loss: none,
  },
  early: {
    name: "early",
    label: "Early glaucoma",
    age: 65,
    fpr: 0.03,
    fnr: 0.02,
    fixationLossRate: 0.05,
    responseTimeMs: 440,
    globalSd: 1,
    localSd: 1,
    variability: HENSON.glaucoma,
    loss: (p, _l, rng) => glaucomaLoss(p, "early", rng),
  },
  moderate: {
    name: "moderate",
    label: "Moderate glaucoma",
    age: 68,
    fpr: 0.03,
    fnr: 0.03,
    fixationLossRate: 0.06,
    responseTimeMs: 460,
    globalSd: 1,
    localSd: 1,
    variability: HENSON.glaucoma,
    loss: (p, _l, rng) => glaucomaLoss(p, "moderate", rng),
  },
  advanced: {
    name: "advanced",
    label: "Advanced glaucoma",
    age: 72,
    fpr: 0.03,
    fnr: 0.05,
    fixationLossRate: 0.08,
    responseTimeMs: 480,
    globalSd: 1,
    localSd: 1,
    variability: HENSON.glaucoma,
    loss: (p, _l, rng) => glaucomaLoss(p, "advanced", rng),
  },
  hemianopia: {
    name: "hemianopia",
    label: "Left homonymous hemianopia",
    age: 58,
    fpr: 0.03,
    fnr: 0.02,
    fixationLossRate: 0.04,
    responseTimeMs: 430,
    globalSd: 1,
    localSd: 1,
    variability: HENSON.combined,
    loss: (p, leftEye) => hemianopiaLoss(p, "left", leftEye),
  },
  unreliable: {
    name: "unreliable",
    label: "Unreliable responder",
    age: 60,
    fpr: 0.2,
    fnr: 0.15,
    fixationLossRate: 0.25,
    responseTimeMs: 560,
    globalSd: 1.5,
    localSd: 1.5,
    variability: HENSON.combined,
    loss: none,
  },
};

export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];
