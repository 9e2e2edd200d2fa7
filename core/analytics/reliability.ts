/**
 * Reliability from catch trials. Rates = errors / presentations (null when none were presented).
 * Limits (shared/design/analytics.md "Reliability"; Katz & Sommer 1989, HFA instructions): fixation losses > 20 %,
 * false positives > 15 % (the SITA-era limit, the stricter of the two in use), false negatives > 33 %.
 * Fixation losses are Heijl-Krakau blind-spot catch trials: a response is a loss.
 */
export const RELIABILITY_LIMITS = { fixationLoss: 0.2, falsePositive: 0.15, falseNegative: 0.33 } as const;

export interface CatchTrialCount {
  readonly errors: number;
  readonly presentations: number;
}
export interface CatchTrials {
  readonly falsePositive?: CatchTrialCount | null;
  readonly falseNegative?: CatchTrialCount | null;
  readonly blindSpot?: CatchTrialCount | null;
}

export type ReliabilityProblem = "fixation-losses" | "false-positives" | "false-negatives";
export interface Reliability {
  readonly falsePositiveRate: number | null;
  readonly falseNegativeRate: number | null;
  readonly fixationLossRate: number | null;
  readonly reliable: boolean;
  /** Which limits were exceeded (empty when reliable). */
  readonly problems: ReliabilityProblem[];
}

export function catchTrialRate(c: CatchTrialCount | null | undefined): number | null {
  if (!c || c.presentations <= 0) return null;
  return c.errors / c.presentations;
}

export function reliability(catchTrials: CatchTrials | null | undefined): Reliability {
  const fp = catchTrialRate(catchTrials?.falsePositive);
  const fn = catchTrialRate(catchTrials?.falseNegative);
  const fl = catchTrialRate(catchTrials?.blindSpot);
  const problems: ReliabilityProblem[] = [];
  if (fl !== null && fl > RELIABILITY_LIMITS.fixationLoss) problems.push("fixation-losses");
  if (fp !== null && fp > RELIABILITY_LIMITS.falsePositive) problems.push("false-positives");
  if (fn !== null && fn > RELIABILITY_LIMITS.falseNegative) problems.push("false-negatives");
  return { falsePositiveRate: fp, falseNegativeRate: fn, fixationLossRate: fl, reliable: problems.length === 0, problems };
}
