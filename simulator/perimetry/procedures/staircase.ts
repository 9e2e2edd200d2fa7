import { type Procedure, MAX_DB, MIN_DB, bracketing } from "./procedure.ts";

/**
 * Normal strategy: the 4-2 staircase (full threshold). Start at the expected level, move 4 dB against each response
 * (dimmer when seen, brighter when not) up to the first reversal, then 2 dB; stop at the second reversal. The estimate is
 * the midpoint of the last seen and last unseen levels. Bounds: seen at the dimmest level, or missed twice at the
 * brightest, ends the staircase.
 */
export const staircase42 = (start: number): Procedure => {
  let step = 4;
  let reversals = 0;
  let lastDirection = 0;
  let missesAtMin = 0;
  return bracketing(start, (shown, seen) => {
    const direction = seen ? 1 : -1;
    if (lastDirection !== 0 && direction !== lastDirection) {
      reversals++;
      step = 2;
    }
    lastDirection = direction;
    if (!seen && shown === MIN_DB) missesAtMin++;
    if (reversals >= 2 || (seen && shown === MAX_DB) || missesAtMin >= 2) return "done";
    return shown + direction * step;
  });
};

/** A second determination is made where the first differs from the expected level by more than this (dB). */
export const RETEST_DEVIATION_DB = 4;

/**
 * The Normal strategy: a 4-2 staircase from the start level; where its estimate differs from the expected (age-normal)
 * level by more than 4 dB, a second 4-2 staircase runs from the first estimate, as the Humphrey full-threshold strategy
 * re-determines unexpected thresholds. The estimate is the mean of the determinations.
 */
export const normalStrategy = (start: number, expected: number): Procedure => {
  const first = staircase42(start);
  let second: Procedure | null = null;
  const current = () => second ?? first;
  return {
    get done() {
      return first.done && (second === null ? Math.abs(first.estimate() - expected) <= RETEST_DEVIATION_DB : second.done);
    },
    get presentations() {
      return first.presentations + (second?.presentations ?? 0);
    },
    seen: null,
    nextLevel: () => current().nextLevel(),
    record: (level, seen) => {
      current().record(level, seen);
      if (second === null && first.done && Math.abs(first.estimate() - expected) > RETEST_DEVIATION_DB)
        second = staircase42(first.estimate());
    },
    estimate: () => (second ? (first.estimate() + second.estimate()) / 2 : first.estimate()),
  };
};
