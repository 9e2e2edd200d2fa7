import { normalCdf } from "./random.ts";

// Frequency of seeing (OPI's simulated observer, shared/design/analytics.md):
//   P(seen | level x, threshold t) = fpr + (1 - fpr - fnr) (1 - Phi((x - t) / sigma)),  sigma = min(6, exp(A t + B))
// with Henson et al.'s (2000) variability: normals A = -0.066, B = 2.81; glaucoma -0.098, 3.62; combined -0.081, 3.27.

export interface HensonVariability {
  readonly a: number;
  readonly b: number;
}
export const HENSON = {
  normal: { a: -0.066, b: 2.81 },
  glaucoma: { a: -0.098, b: 3.62 },
  combined: { a: -0.081, b: 3.27 },
} as const satisfies Record<string, HensonVariability>;

/** Psychometric slope (SD of the cumulative Gaussian) at a true threshold, capped at 6 dB. */
export const hensonSigma = (t: number, v: HensonVariability = HENSON.combined): number => Math.min(6, Math.exp(v.a * t + v.b));

/** Probability of a "seen" response to a stimulus of `level` dB at a location whose true threshold is `t` dB. */
export const probabilitySeen = (level: number, t: number, fpr: number, fnr: number, v: HensonVariability = HENSON.combined): number =>
  fpr + (1 - fpr - fnr) * (1 - normalCdf((level - t) / hensonSigma(t, v)));
