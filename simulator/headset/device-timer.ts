import type { Clock, TimerId } from "../../core/ports.ts";

/** One timer of device time on a Clock, at the headset's speed as read when it is set. After a speed change, retime()
 * moves a pending timer so that the device time it had left passes at the new speed (a 120 s tutorial half over at speed
 * 1 ends 6 s of clock time after a change to 10, not 60 s). */
export class DeviceTimer {
  private id: TimerId | null = null;
  private fn: (() => void) | null = null;
  private due = 0;
  private speedAt = 1;

  constructor(
    private readonly clock: Clock,
    private readonly speed: () => number,
  ) {}

  get pending(): boolean {
    return this.id !== null;
  }

  set(deviceMs: number, fn: () => void): void {
    this.clear();
    this.fn = fn;
    this.speedAt = this.speed();
    const ms = deviceMs / this.speedAt;
    this.due = this.clock.now() + ms;
    this.id = this.clock.setTimeout(() => {
      this.id = null;
      this.fn = null;
      fn();
    }, ms);
  }

  clear(): void {
    if (this.id !== null) this.clock.clearTimeout(this.id);
    this.id = null;
    this.fn = null;
  }

  /** The speed has changed: the device time left runs at the new one. */
  retime(): void {
    const fn = this.fn;
    if (this.id === null || !fn || this.speed() === this.speedAt) return;
    this.set(Math.max(0, this.due - this.clock.now()) * this.speedAt, fn);
  }
}
