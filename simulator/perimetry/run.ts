import type { Clock, TimerId } from "../../core/ports.ts";
import type { PerimetryOutcome, PerimetryTest, StepOutcome } from "./engine.ts";

// Drive a test on a Clock: one presentation per stimulus cycle, each cycle lasting cycleMs / speed of clock time.
// On a virtual clock (adapters/clock) a whole test runs in moments and clock.now() reads its duration; on a real clock, speed 1 takes as
// long as the device would and speed 10 a tenth of it (demos). The speed may be a getter: it is read as each cycle is
// scheduled, so a change applies from the next cycle on (the cycle already under way ends at the pace it began with).

export interface ClockRun {
  /** Pause: no further presentations until resume (the current cycle is abandoned, as on the device). */
  pause(): void;
  resume(): void;
  /** Stop for good; onDone is not called. */
  stop(): void;
  readonly paused: boolean;
  readonly stopped: boolean;
}

export interface ClockRunOptions {
  /** Device time per clock time; a function is read at every cycle (a headset whose speed is changed mid-test). */
  readonly speed?: number | (() => number);
  readonly onStep?: (s: StepOutcome) => void;
  readonly onDone?: (o: PerimetryOutcome) => void;
}

export const runOnClock = (test: PerimetryTest, clock: Clock, options: ClockRunOptions = {}): ClockRun => {
  const given = options.speed ?? 1;
  const speed = (): number => {
    const v = typeof given === "function" ? given() : given;
    if (!(v > 0)) throw new Error(`runOnClock: speed must be positive, got ${v}`);
    return v;
  };
  speed();
  let timer: TimerId | null = null;
  let paused = false;
  let stopped = false;
  const schedule = () => {
    // The stimulus is shown at the start of the cycle and the response window closes at its end.
    timer = clock.setTimeout(tick, test.nextCycleMs / speed());
  };
  const tick = () => {
    timer = null;
    if (paused || stopped) return;
    const s = test.step();
    options.onStep?.(s);
    if (s.done) {
      stopped = true;
      options.onDone?.(test.outcome());
    } else schedule();
  };
  schedule();
  return {
    pause: () => {
      if (paused || stopped) return;
      paused = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
    resume: () => {
      if (!paused || stopped) return;
      paused = false;
      schedule();
    },
    stop: () => {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
    get paused() {
      return paused;
    },
    get stopped() {
      return stopped;
    },
  };
};
