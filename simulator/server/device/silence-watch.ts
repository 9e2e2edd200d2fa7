import type { ServerContext } from "../context.ts";

// "No heartbeat for 4 s marks it disconnected" (scheduling §4) is checked for every headset socket of a process by one
// timer: the same check as a timer per socket (each started at its own moment, thousands of timers firing all through
// the second), with one timer whatever the number of headsets.

type Check = () => void;

const watches = new WeakMap<ServerContext, { checks: Set<Check>; timer: NodeJS.Timeout | null }>();

/** How often silence is looked for: a quarter of the silence allowed, at most once a second, at least every 50 ms. */
export const silenceCheckMs = (deviceSilenceMs: number) => Math.min(1000, Math.max(50, deviceSilenceMs / 4));

/** Runs `check` on the process's silence sweep until the returned function is called (when the socket closes). */
export const watchSilence = (ctx: ServerContext, check: Check): (() => void) => {
  let watch = watches.get(ctx);
  if (!watch) watches.set(ctx, (watch = { checks: new Set(), timer: null }));
  const w = watch;
  w.checks.add(check);
  if (!w.timer) {
    w.timer = setInterval(() => {
      for (const c of w.checks) c();
    }, silenceCheckMs(ctx.settings.deviceSilenceMs));
    w.timer.unref(); // never keeps the process alive
  }
  return () => {
    w.checks.delete(check);
    if (w.checks.size === 0 && w.timer) {
      clearInterval(w.timer);
      w.timer = null;
    }
  };
};
