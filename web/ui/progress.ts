/**
 * "Progress bar shows floor of percent, hides fill at 2% or less" (accounts seed §9).
 * Returns the label percent and the fill width in percent; out-of-range input is clamped to 0..100.
 */
export function progressDisplay(percent: number): { label: number; fill: number } {
  const clamped = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const label = Math.floor(clamped);
  return { label, fill: clamped <= 2 ? 0 : clamped };
}
