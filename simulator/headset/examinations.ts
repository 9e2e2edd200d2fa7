import type { AcuityEyeResult, AcuityResult } from "../../core/model/acuity.ts";
import type { ColourVisionResult } from "../../core/model/colour-vision.ts";
import { type AmslerAnswer, Eye } from "../../core/model/enums.ts";
import {
  ACUITY_CHART,
  COLOUR_PLATES,
  classifyColourVision,
  logMARFromOptotypesRead,
  type PlateAnswer,
  type PlateKind,
  type PlateRead,
} from "../../core/rules/acuity-colour.ts";
import type { ProfileName } from "../perimetry/profiles.ts";
import { createRng, type Rng } from "../perimetry/random.ts";

// The appointment variant's other examinations. The seeds describe the Amsler answer only; how long each takes and how
// acuity and colour vision come out are our choices, drawn from the simulated patient. What a patient *is* (true acuity
// per eye, colour-vision type) follows from the patient id for good, like the profile (patients.ts); what one test
// gives (letters read, plate answers) is drawn from the headset's seeded random. Scores and classification are core's
// (core/rules/acuity-colour.ts).

/** Simulated seconds each takes at speed 1 (after the countdown). */
export const EXAMINATION_SECONDS = { amsler: 40, acuity: 90, "color-blindness": 60 } as const;

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

// ---- visual acuity -------------------------------------------------------------------------------------------------

/** logMAR lost to the disease: glaucoma spares central vision until late; hemianopia spares the macula. */
const ACUITY_LOSS: Record<ProfileName, number> = { healthy: 0, early: 0.02, moderate: 0.08, advanced: 0.3, hemianopia: 0, unreliable: 0 };

/**
 * The patient's true acuity (logMAR) in one eye: about -0.1 up to 40, worsening 0.006 a year after that (0.11 at 75), plus
 * the disease's loss, a per-patient and a smaller per-eye offset. Binocular acuity is a little better than the better eye.
 */
export const trueLogMAR = (patientId: string, eye: Eye, age: number, profile: ProfileName): number => {
  if (eye === Eye.Binocular || eye === Eye.Both)
    return Math.min(trueLogMAR(patientId, Eye.Right, age, profile), trueLogMAR(patientId, Eye.Left, age, profile)) - 0.03;
  const person = createRng(`acuity/${patientId}`).normal() * 0.08;
  const ownEye = createRng(`acuity/${patientId}/${eye}`).normal() * 0.04;
  return Math.min(1.6, Math.max(-0.3, -0.1 + 0.006 * Math.max(0, age - 40) + ACUITY_LOSS[profile] + person + ownEye));
};

/** Sloan letters: 10 of them, so a guess is right one time in ten. Slope of the letter-recognition curve in logMAR. */
const GUESS = 0.1;
const SLOPE = 0.035;

/**
 * One eye read down an ETDRS chart (1.0 to -0.3, 5 letters a line) until a line has 3 or more letters missed; each
 * letter is read with a logistic chance in (line - true acuity), a guess floor and the profile's lapses. Scored letter
 * by letter (core logMARFromOptotypesRead).
 */
export const readChart = (eye: Eye, truth: number, profile: ProfileName, rng: Rng): AcuityEyeResult => {
  const lapse = profile === "unreliable" ? 0.08 : 0.02;
  let presented = 0;
  let correct = 0;
  const lines = Math.round((ACUITY_CHART.topLogMAR - ACUITY_CHART.bottomLogMAR) * 10) + 1;
  for (let line = 0; line < lines; line++) {
    const size = ACUITY_CHART.topLogMAR - line / 10;
    const seen = 1 / (1 + Math.exp(-(size - truth) / SLOPE));
    const p = GUESS + (1 - GUESS - lapse) * seen;
    let missed = 0;
    for (let letter = 0; letter < ACUITY_CHART.lettersPerLine; letter++) {
      presented++;
      if (rng.chance(p)) correct++;
      else missed++;
    }
    if (missed >= 3) break;
  }
  return { eye, logMAR: logMARFromOptotypesRead(correct), optotypesPresented: presented, optotypesCorrect: correct };
};

const eyesTested = (eye: Eye): Eye[] => (eye === Eye.Both ? [Eye.Right, Eye.Left] : [eye]);

export interface PatientContext {
  readonly patientId: string;
  readonly profile: ProfileName;
  readonly age: number;
}

/** An acuity examination of `eye` (Both: right then left), without the stamp (takenAt, device, appointment). */
export const acuityExamination = (eye: Eye, patient: PatientContext, rng: Rng): Pick<AcuityResult, "chart" | "eyes"> => {
  const [first, ...rest] = eyesTested(eye).map((e) =>
    readChart(e, trueLogMAR(patient.patientId, e, patient.age, patient.profile), patient.profile, rng),
  );
  return { chart: "etdrs", eyes: [first!, ...rest] };
};

// ---- colour vision -------------------------------------------------------------------------------------------------

export type ColourType = "normal" | "protan" | "deutan" | "tritan";

/**
 * The patient's colour vision: congenital red-green deficiency in about 4 % (we do not know the sex here: about 8 % of
 * men and 0.5 % of women), a quarter of it protan; an acquired blue-yellow (tritan-like) loss in glaucoma, more often the
 * more advanced.
 */
export const colourTypeFor = (patientId: string, profile: ProfileName): ColourType => {
  const rng = createRng(`colour/${patientId}`);
  const u = rng.next();
  if (u < 0.01) return "protan";
  if (u < 0.04) return "deutan";
  const acquired = { healthy: 0, early: 0.03, moderate: 0.1, advanced: 0.35, hemianopia: 0, unreliable: 0 }[profile];
  return rng.chance(acquired) ? "tritan" : "normal";
};

const pick = (rng: Rng, weights: ReadonlyArray<readonly [PlateAnswer, number]>): PlateAnswer => {
  let u = rng.next() * weights.reduce((s, [, w]) => s + w, 0);
  for (const [a, w] of weights) {
    if (u < w) return a;
    u -= w;
  }
  return weights.at(-1)![0];
};

/** What a patient of `type` reads on a plate of `kind`. */
const readPlate = (kind: PlateKind, type: ColourType, profile: ProfileName, rng: Rng): PlateAnswer => {
  const miss = profile === "unreliable" ? 0.12 : 0.03; // inattention or a slip, any plate
  if (kind === "demonstration") return rng.chance(miss / 3) ? "none" : "normal";
  const redGreen = type === "protan" || type === "deutan";
  switch (kind) {
    case "red-green":
      return redGreen
        ? pick(rng, [
            ["deficient", 0.8],
            ["none", 0.1],
            ["normal", 0.1],
          ])
        : rng.chance(miss)
          ? pick(rng, [
              ["none", 1],
              ["deficient", 1],
            ])
          : "normal";
    case "classification":
      if (!redGreen) return rng.chance(miss) ? "none" : "normal";
      return pick(rng, [
        [type, 0.8],
        ["none", 0.15],
        [type === "protan" ? "deutan" : "protan", 0.05],
      ]);
    case "tritan":
      return type === "tritan"
        ? pick(rng, [
            ["deficient", 0.75],
            ["none", 0.1],
            ["normal", 0.15],
          ])
        : rng.chance(miss)
          ? "none"
          : "normal";
  }
};

/** The plate answers of one colour-vision examination (the headset's plate set, in order). */
export const colourPlates = (patient: PatientContext, rng: Rng): PlateRead[] => {
  const type = colourTypeFor(patient.patientId, patient.profile);
  return COLOUR_PLATES.map((kind) => ({ kind, answer: readPlate(kind, type, patient.profile, rng) }));
};

/** A colour-vision examination, without the stamp. */
export const colourExamination = (
  patient: PatientContext,
  rng: Rng,
): Pick<ColourVisionResult, "platesPresented" | "platesCorrect" | "classification"> => classifyColourVision(colourPlates(patient, rng));
