import { Pattern, Strategy } from "../model/enums.ts";

/**
 * Seen or not seen, one rule for every reader (plots, CSV, DICOM, FHIR). A thresholding result stores the threshold in
 * dB, where a location not seen even at the brightest stimulus is "<0 dB", stored as a negative value (-1; HFA and
 * visualFields code it so): 0 dB is a threshold, seen at the brightest level. A screening result (supra-threshold,
 * one level, and Esterman) stores the level seen, 0 when missed ("Esterman score: rounded percentage of seen points
 * (threshold above 0)", accounts seed §9).
 */

/** Strategies that test each location at one level, seen or not (analytics.md "Strategies": Supra and 1LT). */
export const screeningStrategies: readonly Strategy[] = [Strategy.Supra, Strategy.OneLevel];

/** A screening strategy: its values are the level seen or 0, not thresholds (Esterman aside: see isScreeningResult). */
export const isScreening = (strategy: Strategy | null | undefined): boolean =>
  strategy !== null && strategy !== undefined && screeningStrategies.includes(strategy);

export const isScreeningResult = (r: { readonly strategy?: Strategy | null; readonly pattern: Pattern }): boolean =>
  r.pattern === Pattern.Esterman || isScreening(r.strategy);

/** Whether the location was seen; null = not presented. */
export function locationSeen(value: number | null, screening: boolean): boolean | null {
  if (value === null) return null;
  return screening ? value > 0 : value >= 0;
}
