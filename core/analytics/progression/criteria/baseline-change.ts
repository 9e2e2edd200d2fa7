import type { Verdict } from "./verdict.ts";

/**
 * The rule CIGTS (Musch et al. 1999) and Schell et al. (2014) share, as vfprogression (Elze et al.) describes it: the
 * baseline is the mean of the first two visits; each later visit's change from it is a worsening when it reaches
 * `threshold` in the direction of loss, an improvement when it reaches it the other way; the series is worsening
 * (improving) when its last `confirmations` visits all are, and no earlier follow-up went the other way ("if a series is
 * both improving and worsening for single visits, it is stable overall"); otherwise stable.
 */
export interface BaselineChangeDetail {
  /** The mean of the first two visits' values. */
  readonly baseline: number;
  /** Every visit's value, in date order. */
  readonly values: number[];
  /** Per follow-up (from the third visit): its change from the baseline, positive = loss. */
  readonly loss: number[];
  readonly threshold: number;
  readonly confirmations: number;
}

export function baselineChange(
  values: readonly number[],
  /** True when a larger value means more loss (a score); false when less (MD). */
  largerIsLoss: boolean,
  threshold: number,
  confirmations: number,
): { verdict: Verdict; detail: BaselineChangeDetail } {
  const baseline = (values[0]! + values[1]!) / 2;
  const loss = values.slice(2).map((v) => (largerIsLoss ? v - baseline : baseline - v));
  const call = (l: number): Verdict => (l >= threshold ? "worsening" : l <= -threshold ? "improving" : "stable");
  const calls = loss.map(call);
  const last = calls.slice(-confirmations);
  const agreed = last.every((c) => c === last[0]) ? last[0]! : "stable";
  const opposed = agreed !== "stable" && calls.slice(0, -confirmations).some((c) => c !== "stable" && c !== agreed);
  return {
    verdict: opposed ? "stable" : agreed,
    detail: { baseline, values: [...values], loss, threshold, confirmations },
  };
}
