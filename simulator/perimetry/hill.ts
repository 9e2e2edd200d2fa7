import type { PatternPoint } from "../../core/analytics/patterns.ts";
import { HENSON, hensonSigma } from "./fos.ts";

// The simulated patient's normal hill of vision: an age-linear model fitted by ordinary least squares to the SUNY-IU
// control fields in fixtures/visualfields/vfctrSunyiu24d2.csv (263 fields, ages 42-85, blind-spot locations left out):
//   N(x, y, age) = 34.89 - 0.0692 (age - 50) - 0.249 ecc - 0.064 y        (dB; residual SD 2.2 dB; per-location bias < 1.5 dB)
// with ecc = sqrt(x^2 + y^2) in degrees, right-eye orientation (y > 0 superior, where sensitivity is a little lower).
// Beyond 30 degrees (Esterman) the fit would be an extrapolation: there the hill falls more gently (0.12 dB/degree), so a
// healthy eye sees the 10 dB Esterman stimulus everywhere, as normal observers do.
// The physiological blind spot is an ellipse centred at (15, -1.5), 5.5 x 7.5 degrees, an absolute scotoma with a
// 1.3x-radius rim of partial loss (the controls average 3 dB at (15, -3) and 4.5 dB below the fit at (15, 3)).

export const HILL = { intercept: 34.89, agePerYear: -0.0692, perDegree: -0.249, perDegreeUp: -0.064, outerPerDegree: -0.12 } as const;

/** The age-normal sensitivity (dB) at a right-eye point, ignoring the blind spot. */
export const hillOfVision = (p: PatternPoint, age: number): number => {
  const ecc = Math.hypot(p.x, p.y);
  const inner = Math.min(ecc, 30);
  const outer = Math.max(0, ecc - 30);
  return HILL.intercept + HILL.agePerYear * (age - 50) + HILL.perDegree * inner + HILL.outerPerDegree * outer + HILL.perDegreeUp * p.y;
};

/** Spread of normal total deviation at a point: the controls' 5 % TD limit over 1.645. Fitted to visualFields' sunyiu_24d2
 * 5 % limits (normvals-sunyiu_24d2.json, luts.td at p = 0.05): q05 = -1.66 - 0.107 ecc dB (residual SD 0.9 dB). */
export const normalTdSd = (p: PatternPoint): number => (1.66 + 0.107 * Math.hypot(p.x, p.y)) / 1.645;

/** The level a normal observer sees on 95 % of single presentations (the supra-threshold screening level): below the
 * hill by 1.645 times the combined spread of normal thresholds (normalTdSd) and of one response about the threshold
 * (Henson's frequency-of-seeing slope for normals at the hill). About 3.7 dB brighter than the hill near fixation, 6 dB
 * at 25 degrees. */
export const normal95 = (p: PatternPoint, age: number): number => {
  const n = hillOfVision(p, age);
  return n - 1.645 * Math.hypot(normalTdSd(p), hensonSigma(n, HENSON.normal));
};

/** Sensitivity lost to the physiological blind spot at a right-eye point (0 outside it; 60 dB = absolute). */
export const blindSpotLoss = (p: PatternPoint): number => {
  const r = Math.hypot((p.x - 15) / 2.75, (p.y + 1.5) / 3.75);
  if (r <= 1) return 60;
  if (r >= 1.3) return 0;
  return 15 * ((1.3 - r) / 0.3);
};

/** The full normal field of a monocular eye at its pattern points (right-eye orientation). */
export const normalField = (points: readonly PatternPoint[], age: number, monocular = true): number[] =>
  points.map((p) => hillOfVision(p, age) - (monocular ? blindSpotLoss(p) : 0));
