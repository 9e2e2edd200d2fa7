import type { Clock, TimerId } from "../../core/ports.ts";

// A clock that only moves when told to, so timing rules (4 s disconnect, 5 s progress clearing, 2 s offline debounce,
// 15 s ping, 1 s reconnect) are tested exactly and instantly, and a whole simulated test (simulator/perimetry) runs in
// moments with its duration read off the clock. Timers fire in time order (equal times in the order they were set); a
// timer set by a firing timer fires in the same advance if due.

interface Timer {
  readonly id: number;
  at: number;
  readonly every: number | null;
  readonly fn: () => void;
}

export interface VirtualClock extends Clock {
  /** Move time forward, firing every due timer in time order (timers scheduled by timers included). */
  advance(ms: number): void;
  /** Fire timers in order until none is due at or before `until` (epoch ms); time ends at `until` if that is later. */
  runUntil(until: number): void;
  /** Fire timers until none is left (intervals must be cleared by their owner), at most `limit` firings. */
  runAll(limit?: number): void;
  /** How many timers are pending (for tests that check nothing is left running). */
  pending(): number;
}

export function createVirtualClock(start = 0): VirtualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  // A zero interval repeats every millisecond, not forever at one instant; shorter positive ones (a fast simulated
  // headset) are kept as they are.
  const schedule = (fn: () => void, ms: number, every: number | null): TimerId => {
    const id = nextId++;
    timers.set(id, { id, at: now + Math.max(0, ms), every, fn });
    return id;
  };
  const clear = (id: TimerId) => {
    timers.delete(id as number);
  };
  const nextDue = (): Timer | undefined => {
    let due: Timer | undefined;
    for (const t of timers.values()) if (due === undefined || t.at < due.at || (t.at === due.at && t.id < due.id)) due = t;
    return due;
  };
  const fire = (t: Timer) => {
    now = Math.max(now, t.at);
    if (t.every === null) timers.delete(t.id);
    else t.at += t.every;
    t.fn();
  };
  const runUntil = (until: number) => {
    for (let t = nextDue(); t !== undefined && t.at <= until; t = nextDue()) fire(t);
    now = Math.max(now, until);
  };

  return {
    now: () => now,
    setTimeout: (fn, ms) => schedule(fn, ms, null),
    setInterval: (fn, ms) => schedule(fn, ms, ms > 0 ? ms : 1),
    clearTimeout: clear,
    clearInterval: clear,
    pending: () => timers.size,
    advance: (ms) => runUntil(now + ms),
    runUntil,
    runAll(limit = 10_000_000) {
      for (let n = 0, t = nextDue(); t !== undefined; t = nextDue()) {
        if (++n > limit) throw new Error(`VirtualClock.runAll: more than ${limit} timers fired`);
        fire(t);
      }
    },
  };
}
