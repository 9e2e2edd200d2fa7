import type { Clock } from "../../core/ports.ts";

/** The same clock, with every timer callback's exception handed to `onError` instead of escaping to the host's timer
 * loop (where it would end the process, and with it every other headset and the server beside them). */
export const guardedClock = (clock: Clock, onError: (e: unknown) => void): Clock => {
  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (e) {
      onError(e);
    }
  };
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(guard(fn), ms),
    clearTimeout: (id) => clock.clearTimeout(id),
    setInterval: (fn, ms) => clock.setInterval(guard(fn), ms),
    clearInterval: (id) => clock.clearInterval(id),
  };
};
