/**
 * What every per-field staging method answers (issue 30): a stage or score, or "not applicable" with the reason in a
 * code the screens put in words. Never a stage from too little data.
 */
export type StageNotApplicableReason =
  /** The method is defined on 24-2 and 30-2 only (not 10-2, G, the screenings or Esterman). */
  | "pattern"
  /** A supra-threshold screening (Supra, 1LT): its values are the levels seen, not thresholds. */
  | "screening"
  /** A location the method needs was not measured. */
  | "missing-locations"
  /** No normative database for the pattern and version: no TD, PD, probabilities or MD/PSD. */
  | "no-normative-database";

export const STAGE_NOT_APPLICABLE_REASONS: readonly StageNotApplicableReason[] = [
  "pattern",
  "screening",
  "missing-locations",
  "no-normative-database",
];

/** Not applicable, for one of `R`'s reasons (a method that can only fail some ways says which). */
export interface StageNotApplicable<R extends StageNotApplicableReason = StageNotApplicableReason> {
  readonly applicable: false;
  readonly reason: R;
}

export const stageNotApplicable = <R extends StageNotApplicableReason>(reason: R): StageNotApplicable<R> => ({ applicable: false, reason });
