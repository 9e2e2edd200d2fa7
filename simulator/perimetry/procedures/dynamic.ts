import { type Procedure, MAX_DB, MIN_DB, bracketing } from "./procedure.ts";

/**
 * DS, the Octopus Dynamic strategy (Weber & Klimaschka 1995): one crossing of the threshold with a step that grows with
 * the depth of the defect. From the start level, 2 dB dimmer after each "seen"; after each "not seen", brighter by
 * 2 dB near normal growing to 10 dB in deep defects (2 + 0.4 dB per dB below the expected normal). The first response
 * that differs from the previous ends it; the estimate is the midpoint of that bracket.
 */
export const dynamicStep = (level: number, expected: number): number => Math.round(Math.min(10, Math.max(2, 2 + 0.4 * (expected - level))));

export const dynamicStrategy = (start: number, expected: number): Procedure =>
  bracketing(start, (shown, seen, { lastSeen, lastUnseen }) => {
    if ((lastSeen !== null && lastUnseen !== null) || (seen && shown >= MAX_DB) || (!seen && shown <= MIN_DB)) return "done";
    return seen ? shown + 2 : shown - dynamicStep(shown, expected);
  });
