import type { Clock } from "../../core/ports.ts";
import type { ThresholdPoint } from "../../core/model/running-test.ts";
import type { PerimetryOutcome, PerimetryTest } from "../perimetry/engine.ts";
import { runOnClock } from "../perimetry/run.ts";
import { DeviceTimer } from "./device-timer.ts";
import { UNRESPONSIVE_PAUSE_AFTER } from "./sequence.ts";

// What runs while the headset is "playing": a perimetry test on the engine, or a timed examination (Amsler, acuity,
// colour). Both pause, resume and stop on the headset's Clock, and report progress as the device protocol carries it.
// Speed is a getter read as each step is scheduled, so a test sped up or slowed down midway goes on without a restart.
// After a change the headset calls speedChanged(): a timed examination's step under way keeps the device time it had
// left at the new speed; a perimetry stimulus cycle under way (a couple of seconds of device time) ends at the pace it
// began with and the next cycles use the new speed.

/** Device time per clock time, read at every step. */
export type SpeedOf = () => number;

export interface PlayProgress {
  readonly nTested: number;
  readonly nLocations: number;
  readonly thresholds: readonly ThresholdPoint[];
  readonly lastUpdatedIndex: number | null;
}

export interface Player {
  pause(): void;
  resume(): void;
  stop(): void;
  /** The patient stops (true) or starts again (false) pressing the clicker. */
  setUnresponsive(on: boolean): void;
  /** The headset's speed has changed (the getter it was given already answers the new one). */
  speedChanged(): void;
}

export interface PlayHooks<R> {
  progress(p: PlayProgress): void;
  done(outcome: R): void;
  /** The patient has not pressed for a long run of presentations: the headset pauses the test. */
  patientSilent(): void;
}

/** A perimetry test on the engine: one presentation per stimulus cycle / speed. */
export const playPerimetry = (test: PerimetryTest, clock: Clock, speed: number | SpeedOf, hooks: PlayHooks<PerimetryOutcome>): Player => {
  const run = runOnClock(test, clock, {
    speed,
    onStep: (s) => {
      if (s.progress) hooks.progress(s.progress);
      const silent = test.unansweredInARow;
      // Deferred: runOnClock schedules the next cycle after onStep returns, and a pause must clear that timer.
      if (!s.done && silent >= UNRESPONSIVE_PAUSE_AFTER && silent % UNRESPONSIVE_PAUSE_AFTER === 0)
        clock.setTimeout(() => hooks.patientSilent(), 0);
    },
    onDone: (o) => hooks.done(o),
  });
  return {
    pause: () => run.pause(),
    resume: () => run.resume(),
    stop: () => run.stop(),
    setUnresponsive: (on) => {
      test.unresponsive = on;
    },
    // The cycle under way ends at its pace; runOnClock reads the new speed for the next one.
    speedChanged: () => undefined,
  };
};

/** A timed examination of `steps` equal steps over `totalMs` device time (Amsler: one answer; acuity: letters; colour:
 * plates). An unresponsive patient does not advance it; after UNRESPONSIVE_PAUSE_AFTER silent step lengths it asks
 * for a pause, like a perimetry test. */
export const playTimed = (steps: number, totalMs: number, clock: Clock, speed: number | SpeedOf, hooks: PlayHooks<null>): Player => {
  const deviceStepMs = totalMs / steps;
  const speedNow = typeof speed === "function" ? speed : () => speed;
  let done = 0;
  let silent = 0;
  let unresponsive = false;
  const timer = new DeviceTimer(clock, speedNow);
  let paused = false;
  let stopped = false;
  const schedule = () => timer.set(deviceStepMs, tick);
  const tick = () => {
    if (paused || stopped) return;
    if (unresponsive) {
      silent++;
      if (silent % UNRESPONSIVE_PAUSE_AFTER === 0) hooks.patientSilent();
      if (!paused && !stopped) schedule();
      return;
    }
    silent = 0;
    done++;
    hooks.progress({ nTested: done, nLocations: steps, thresholds: [], lastUpdatedIndex: null });
    if (done >= steps) {
      stopped = true;
      hooks.done(null);
    } else if (!paused && !stopped) schedule();
  };
  schedule();
  const cancel = () => timer.clear();
  return {
    pause: () => {
      if (paused || stopped) return;
      paused = true;
      cancel();
    },
    resume: () => {
      if (!paused || stopped) return;
      paused = false;
      schedule();
    },
    stop: () => {
      stopped = true;
      cancel();
    },
    setUnresponsive: (on) => {
      unresponsive = on;
      if (!on) silent = 0;
    },
    speedChanged: () => timer.retime(),
  };
};
