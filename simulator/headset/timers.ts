import type { Clock, TimerId } from "../../core/ports.ts";

/** A headset's timers by name on its Clock: setting a name again replaces its timer, and all go at once on power-off. */
export class NamedTimers {
  private readonly timeouts = new Map<string, TimerId>();
  private readonly intervals = new Map<string, TimerId>();

  constructor(private readonly clock: Clock) {}

  later(name: string, ms: number, fn: () => void): void {
    this.cancel(name);
    this.timeouts.set(
      name,
      this.clock.setTimeout(() => {
        this.timeouts.delete(name);
        fn();
      }, ms),
    );
  }

  every(name: string, ms: number, fn: () => void): void {
    this.cancel(name);
    this.intervals.set(name, this.clock.setInterval(fn, ms));
  }

  cancel(name: string): void {
    const t = this.timeouts.get(name);
    if (t !== undefined) this.clock.clearTimeout(t);
    this.timeouts.delete(name);
    const i = this.intervals.get(name);
    if (i !== undefined) this.clock.clearInterval(i);
    this.intervals.delete(name);
  }

  cancelAll(): void {
    for (const name of [...this.timeouts.keys(), ...this.intervals.keys()]) this.cancel(name);
  }
}
