// How a per-location value is printed inside a field plot (whole dB, as on clinical printouts).

import { defectLabel } from "../analytics/octopus.ts";

/** A threshold in whole dB; a negative threshold (not seen at the brightest stimulus) prints "<0". */
export function thresholdLabel(db: number): string {
  if (db < 0) return "<0";
  return String(Math.round(db));
}

/**
 * "Defect below 5 shows a plus sign." (accounts seed §9; the rule is core/analytics' defectLabel) Otherwise the defect
 * in whole dB, which is what fits at a location (the indices table keeps the 2 decimals).
 */
export function comparisonLabel(defect: number): string {
  return defectLabel(defect) === "+" ? "+" : String(Math.round(defect));
}

/** A signed whole-dB value: "+3", "-2", "0". */
export function signedLabel(value: number): string {
  const r = Math.round(value);
  return r > 0 ? `+${r}` : r === 0 ? "0" : `-${-r}`;
}

/** A deviation in whole dB as HFA prints it: "-3", "0", "2" (no plus sign). */
export function deviationLabel(value: number): string {
  const r = Math.round(value);
  return r === 0 ? "0" : String(r);
}
