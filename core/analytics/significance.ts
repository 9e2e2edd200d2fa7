import type { ProbabilityLevel } from "./normative/tables.ts";

/**
 * A global index's or location's level against the controls as the p-value printouts show: "p < 5 %", "p < 1 %"...
 * The tables give bands, not exact probabilities, so the value is the band's upper bound; null when the value lies
 * within normal limits (5 % or more: the levels 0.95 and above mean "not significant").
 */
export function significance(level: ProbabilityLevel | null | undefined): number | null {
  if (level === null || level === undefined || level > 0.05) return null;
  return level;
}

/** "p < 5 %" and so on; "" within normal limits. */
export const significanceLabel = (level: ProbabilityLevel | null | undefined): string => {
  const p = significance(level);
  return p === null ? "" : `p < ${p * 100} %`;
};
