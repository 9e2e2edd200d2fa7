// The seeds' colour and grey bands (accounts seed §9):
// "Threshold colour bands (dB): 24-40 (0-10%), 21-23, 17-20, 14-16, 11-13, 8-10, 7-4, 1-3, 0"
// "Eight grey bands from 1 to 40 dB in steps of 5."

import type { ColourToken } from "./palette.ts";

export interface Band {
  /** Lowest dB of the band (inclusive, on the rounded value). */
  readonly min: number;
  readonly max: number;
  readonly label: string;
  readonly colour: ColourToken;
  /** Ink that reads on the band's colour. */
  readonly ink: ColourToken;
}

/** Threshold colour bands, best first. Values above 40 dB fall in the first band. */
export const thresholdBands: readonly Band[] = [
  { min: 24, max: 40, label: "24-40", colour: "threshold-band-0", ink: "plot-ink" },
  { min: 21, max: 23, label: "21-23", colour: "threshold-band-1", ink: "plot-ink" },
  { min: 17, max: 20, label: "17-20", colour: "threshold-band-2", ink: "plot-ink" },
  { min: 14, max: 16, label: "14-16", colour: "threshold-band-3", ink: "plot-ink" },
  { min: 11, max: 13, label: "11-13", colour: "threshold-band-4", ink: "plot-ink" },
  { min: 8, max: 10, label: "8-10", colour: "threshold-band-5", ink: "plot-ink" },
  { min: 4, max: 7, label: "4-7", colour: "threshold-band-6", ink: "plot-ink" },
  { min: 1, max: 3, label: "1-3", colour: "threshold-band-7", ink: "plot-ink-inverse" },
  { min: -Infinity, max: 0, label: "0", colour: "threshold-band-8", ink: "plot-ink-inverse" },
];

/** Index into `thresholdBands` of a threshold in dB (rounded to the integer that is displayed). */
export function thresholdBand(db: number): number {
  const r = Math.round(db);
  const i = thresholdBands.findIndex((b) => r >= b.min);
  return i < 0 ? thresholdBands.length - 1 : i;
}

/** Grey bands, darkest first: 0 = no response (below 1 dB), then the eight bands 1-5, 6-10, ..., 36-40 dB. */
export const greyBands: readonly Band[] = [
  { min: -Infinity, max: 0, label: "0", colour: "grey-band-0", ink: "plot-ink-inverse" },
  ...Array.from(
    { length: 8 },
    (_, i): Band => ({
      min: 1 + 5 * i,
      max: 5 + 5 * i,
      label: `${1 + 5 * i}-${5 + 5 * i}`,
      colour: `grey-band-${i + 1}` as ColourToken,
      ink: i < 4 ? "plot-ink-inverse" : "plot-ink",
    }),
  ),
];

/** Grey band of a threshold: 0 below 1 dB, else 1 (1-5 dB) ... 8 (36-40 dB and above). */
export function greyBand(db: number): number {
  const r = Math.round(db);
  if (r < 1) return 0;
  return Math.min(8, Math.ceil(r / 5));
}

/** "Value legend tops out at 47 dB." */
export const valueLegendMax = 47;
