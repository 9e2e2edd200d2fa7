import type { Clock, TimerId } from "../../core/ports.ts";

/** The real clock: Date.now and the host's timers (browser or Node). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id: TimerId) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id: TimerId) => globalThis.clearInterval(id as ReturnType<typeof globalThis.setInterval>),
};
