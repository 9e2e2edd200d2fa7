import type { AcuityResult, ColourVisionResult } from "../../core/device/result.ts";
import type { AmslerAnswer } from "../../core/model/enums.ts";
import type { ProfileName } from "../perimetry/profiles.ts";
import type { Rng } from "../perimetry/random.ts";

// The appointment variant's other examinations. The seeds describe the Amsler answer only; how long each takes and how
// acuity and colour vision come out are our choices, drawn from the patient's profile.

/** Simulated seconds each takes at speed 1 (after the countdown). */
export const EXAMINATION_SECONDS = { amsler: 40, acuity: 90, "color-blindness": 60 } as const;
/** Steps reported as progress (Amsler: one answer; acuity: letters; colour: plates). */
export const EXAMINATION_STEPS = { amsler: 1, acuity: 20, "color-blindness": 15 } as const;

export const amslerAnswer = (profile: ProfileName, rng: Rng): AmslerAnswer => {
  const u = rng.next();
  switch (profile) {
    case "healthy":
    case "early":
      return u < 0.95 ? "healthy" : "not-sure";
    case "moderate":
      return u < 0.7 ? "healthy" : u < 0.85 ? "wavy" : "not-sure";
    case "advanced":
    case "hemianopia":
      return u < 0.6 ? "missing" : u < 0.8 ? "wavy" : "not-sure";
    case "unreliable":
      return u < 0.5 ? "healthy" : "not-sure";
  }
};

export const acuityResult = (age: number, rng: Rng, takenAt: string): AcuityResult => {
  const logMAR = Math.round(Math.max(-0.2, Math.min(1, 0.005 * (age - 40) + 0.1 * rng.normal())) * 10) / 10;
  const lettersShown = EXAMINATION_STEPS.acuity;
  const lettersCorrect = Math.max(0, Math.min(lettersShown, Math.round(lettersShown * (1 - logMAR / 1.2) + rng.normal())));
  return { takenAt, logMAR, lettersCorrect, lettersShown };
};

export const colourVisionResult = (rng: Rng, takenAt: string): ColourVisionResult => {
  const platesShown = EXAMINATION_STEPS["color-blindness"];
  // About 8 % of men and 0.5 % of women have a red-green deficiency; we do not know the sex here: 4 %.
  const deficient = rng.chance(0.04);
  return { takenAt, platesShown, platesCorrect: deficient ? Math.round(rng.uniform(3, 9)) : platesShown - (rng.chance(0.2) ? 1 : 0) };
};
