// Battery display bands and the headset's LED colour (scheduling seed §9 "Battery LED" and "Display bands").
// Bands are lower-bound inclusive: 5 % is in 5-20, 20 % in 20-40, 95 % is full.

export type BatteryBand = "empty" | "5-20" | "20-40" | "40-60" | "60-80" | "80-95" | "full";
export type BandColour = "red" | "yellow" | "green";

export interface BatteryDisplay {
  readonly band: BatteryBand;
  /** Bars to fill, 0 (empty) to 6 (full). */
  readonly bars: number;
  readonly colour: BandColour;
}

/** "Display bands: none or 0-5 empty red, 5-20 red, 20-40 yellow, 40-60 green, 60-80, 80-95, 95-100 full." The seed
 * gives no colour above 60: the bands above green stay green. */
export const batteryDisplay = (level: number | null | undefined): BatteryDisplay => {
  if (level == null || !Number.isFinite(level) || level < 5) return { band: "empty", bars: 0, colour: "red" };
  if (level < 20) return { band: "5-20", bars: 1, colour: "red" };
  if (level < 40) return { band: "20-40", bars: 2, colour: "yellow" };
  if (level < 60) return { band: "40-60", bars: 3, colour: "green" };
  if (level < 80) return { band: "60-80", bars: 4, colour: "green" };
  if (level < 95) return { band: "80-95", bars: 5, colour: "green" };
  return { band: "full", bars: 6, colour: "green" };
};

export type LedColour = "blue" | "red" | "green" | "yellow";
export interface Led {
  readonly colour: LedColour;
  readonly flashing: boolean;
}

/** "Battery LED: blue above 20%, flashing red below 20%, green when full, yellow while charging below 98%, red while
 * charging below 20%." Full is 100 % on battery, 98 % or more while charging; exactly 20 % counts as blue. */
export const batteryLed = (level: number, charging: boolean): Led => {
  if (charging) {
    if (level < 20) return { colour: "red", flashing: false };
    if (level < 98) return { colour: "yellow", flashing: false };
    return { colour: "green", flashing: false };
  }
  if (level >= 100) return { colour: "green", flashing: false };
  if (level < 20) return { colour: "red", flashing: true };
  return { colour: "blue", flashing: false };
};
