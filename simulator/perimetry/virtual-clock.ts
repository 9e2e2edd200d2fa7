import type { Clock, TimerId } from "../../core/ports.ts";

// A Clock (core/ports) whose time moves only when told to: a whole simulated test runs in moments and its duration is
// read off this clock. Timers fire in time order; a timer set by a firing timer fires in the same advance if due.

interface Timer {
  readonly id: number;
  at: number;
  readonly fn: () => void;
  readonly every: number | null;
}

export class VirtualClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    return this.add(fn, ms, null);
  }

  setInterval(fn: () => void, ms: number): TimerId {
    return this.add(fn, ms, Math.max(1e-9, ms));
  }

  clearTimeout(id: TimerId): void {
    this.timers.delete(id as number);
  }

  clearInterval(id: TimerId): void {
    this.timers.delete(id as number);
  }

  /** Pending timers. */
  get pending(): number {
    return this.timers.size;
  }

  /** Move time forward by ms, firing every timer due on the way. */
  advance(ms: number): void {
    this.runUntil(this.time + ms);
  }

  /** Fire timers in order until none is due at or before `until`; time ends at `until`. */
  runUntil(until: number): void {
    for (let t = this.nextDue(); t !== undefined && t.at <= until; t = this.nextDue()) this.fire(t);
    this.time = Math.max(this.time, until);
  }

  /** Fire timers until none is left (intervals must be cleared by their owner), at most `limit` firings. */
  runAll(limit = 10_000_000): void {
    for (let n = 0, t = this.nextDue(); t !== undefined; t = this.nextDue()) {
      if (++n > limit) throw new Error(`VirtualClock.runAll: more than ${limit} timers fired`);
      this.fire(t);
    }
  }

  private add(fn: () => void, ms: number, every: number | null): number {
    const id = ++this.seq;
    this.timers.set(id, { id, at: this.time + Math.max(0, ms), fn, every });
    return id;
  }

  private nextDue(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    return best;
  }

  private fire(t: Timer): void {
    this.time = Math.max(this.time, t.at);
    if (t.every === null) this.timers.delete(t.id);
    else t.at += t.every;
    t.fn();
  }
}
