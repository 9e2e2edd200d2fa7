import type { Clock, TimerId } from "../../core/ports.ts";
import type { Rng } from "../perimetry/random.ts";
import type { FaultRates } from "./faults.ts";

// Random faults as Poisson processes on the headset's clock: each kind with a rate above 0 fires after an exponential
// wait (mean one hour / rate), then waits again. Dropped frames are not scheduled here: each outgoing frame is lost
// with probability dropRate as it is sent.

export type FaultKind = "disconnect" | "drop" | "clicker" | "battery" | "unresponsive";

const HOUR_MS = 3_600_000;

/** Starts the random faults; returns a function that cancels them. */
export const scheduleFaults = (clock: Clock, rng: Rng, rates: () => FaultRates, fire: (kind: FaultKind) => void): (() => void) => {
  const timers = new Map<FaultKind, TimerId>();
  let cancelled = false;
  const rateOf = (kind: FaultKind): number => {
    const r = rates();
    return kind === "disconnect"
      ? r.disconnectsPerHour
      : kind === "clicker"
        ? r.clickerPerHour
        : kind === "battery"
          ? r.batteryEmptyPerHour
          : kind === "unresponsive"
            ? r.unresponsivePerHour
            : 0;
  };
  const arm = (kind: FaultKind) => {
    const rate = rateOf(kind);
    if (cancelled || !(rate > 0)) return;
    const wait = (-Math.log(1 - rng.next()) * HOUR_MS) / rate;
    timers.set(
      kind,
      clock.setTimeout(() => {
        timers.delete(kind);
        if (cancelled) return;
        fire(kind);
        arm(kind);
      }, wait),
    );
  };
  for (const kind of ["disconnect", "clicker", "battery", "unresponsive"] as const) arm(kind);
  return () => {
    cancelled = true;
    for (const t of timers.values()) clock.clearTimeout(t);
    timers.clear();
  };
};
