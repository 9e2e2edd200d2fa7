/**
 * "Esterman score: rounded percentage of seen points (threshold above 0)." (accounts seed §9)
 * Unanswered or untested points (null) count as not seen; the denominator is the pattern's 120 points.
 */
export function estermanScore(thresholds: ReadonlyArray<number | null>): number {
  if (thresholds.length === 0) return 0;
  const seen = thresholds.filter((t) => t !== null && t > 0).length;
  return Math.round((100 * seen) / thresholds.length);
}
