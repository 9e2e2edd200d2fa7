import type { Clock, TimerId } from "../../core/ports.ts";

// A clock that only moves when told to, so timing rules (4 s disconnect, 5 s progress clearing, 2 s offline debounce,
// 15 s ping, 1 s reconnect) are tested exactly and instantly.

interface Timer {
  readonly id: number;
  at: number;
  readonly every: number | null;
  readonly fn: () => void;
}

export interface VirtualClock extends Clock {
  /** Move time forward, firing every due timer in time order (timers scheduled by timers included). */
  advance(ms: number): void;
  /** How many timers are pending (for tests that check nothing is left running). */
  pending(): number;
}

export function createVirtualClock(start = 0): VirtualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  const schedule = (fn: () => void, ms: number, every: number | null): TimerId => {
    const id = nextId++;
    timers.set(id, { id, at: now + Math.max(0, ms), every, fn });
    return id;
  };
  const clear = (id: TimerId) => {
    timers.delete(id as number);
  };

  return {
    now: () => now,
    setTimeout: (fn, ms) => schedule(fn, ms, null),
    setInterval: (fn, ms) => schedule(fn, ms, Math.max(1, ms)),
    clearTimeout: clear,
    clearInterval: clear,
    pending: () => timers.size,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let due: Timer | undefined;
        for (const t of timers.values()) if (t.at <= end && (due === undefined || t.at < due.at || (t.at === due.at && t.id < due.id))) due = t;
        if (due === undefined) break;
        now = due.at;
        if (due.every === null) timers.delete(due.id);
        else due.at += due.every;
        due.fn();
      }
      now = end;
    },
  };
}
