import { stageNotApplicable, type StageNotApplicable } from "./outcome.ts";

/**
 * Glaucoma Staging System 2: Brusini P, Filacorda S, "Enhanced Glaucoma Staging System (GSS 2) for classifying
 * functional damage in glaucoma", J Glaucoma 2006;15:40-46. The stage is read off a chart of MD (x) against PSD (y),
 * Humphrey STATPAC's indices (the paper: CPSD, or PSD, which it shows classifies as well): six curves
 * PSD = a * MD + b * MD^2 + c (MD in dB, negative for loss; c alone for MD >= 0) part stage 0, border-line and stages
 * 1 to 5. A field beyond k curves is in the k-th region; on a curve counts as beyond it (our choice).
 *
 * The coefficients as a public re-implementation lists them (with 95 % limits, not used here); the paper's own table
 * could not be read with the tools at hand when this was written: check them against J Glaucoma 2006;15:40-46.
 * The curves rise slightly between MD 0 and about -2 dB before they fall, so there a lower MD at the same PSD can read
 * one stage lower; from MD -2.2 dB on, a lower MD or a higher PSD never lowers the stage.
 * GSS 2 also names the defect type (generalised, mixed, localised); that is not computed here.
 */
export type Gss2Stage = "0" | "borderline" | "1" | "2" | "3" | "4" | "5";
export const GSS2_STAGES: readonly Gss2Stage[] = ["0", "borderline", "1", "2", "3", "4", "5"];

/** [a, b, c] of the curve that ends each region, stage 0 first. */
export const GSS2_CURVES: ReadonlyArray<readonly [number, number, number]> = [
  [-0.225, -0.541, 1.934],
  [-0.029, -0.276, 2.965],
  [-0.08, -0.184, 4.775],
  [-0.129, -0.1, 8.084],
  [-0.28, -0.074, 13.147],
  [-0.283, -0.067, 24.372],
];

/** The PSD of curve k at an MD. */
export function gss2Boundary(k: number, md: number): number {
  const [a, b, c] = GSS2_CURVES[k]!;
  return md < 0 ? a * md + b * md * md + c : c;
}

export interface Gss2Result {
  readonly applicable: true;
  readonly stage: Gss2Stage;
  /** The Humphrey MD and PSD it was read from. */
  readonly md: number;
  readonly psd: number;
}

export type Gss2Outcome = Gss2Result | StageNotApplicable;

export function gss2Stage(md: number, psd: number): Gss2Outcome {
  if (!Number.isFinite(md) || !Number.isFinite(psd)) return stageNotApplicable("no-normative-database");
  let beyond = 0;
  while (beyond < GSS2_CURVES.length && psd >= gss2Boundary(beyond, md)) beyond++;
  return { applicable: true, stage: GSS2_STAGES[beyond]!, md, psd };
}
