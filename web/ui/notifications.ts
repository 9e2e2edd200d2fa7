import { atom, useSetAtom } from "jotai";
import { useCallback } from "react";

/** "Notifications auto-dismiss after 5 s by default; hovering pauses." (accounts seed §4) */
export const notificationDefaultMs = 5000;

export interface NotificationAction {
  label: string;
  run: () => void;
}
export interface Notification {
  id: number;
  kind: "info" | "success" | "error";
  text: string;
  action?: NotificationAction;
  durationMs: number;
}

export const notificationsAtom = atom<ReadonlyArray<Notification>>([]);
let nextId = 1;

export function useNotify() {
  const set = useSetAtom(notificationsAtom);
  return useCallback(
    (n: Omit<Notification, "id" | "durationMs"> & { durationMs?: number }) => {
      const id = nextId++;
      set((list) => [...list, { durationMs: notificationDefaultMs, ...n, id }]);
      return id;
    },
    [set],
  );
}

/**
 * A pausable countdown: the remaining time survives pauses (hover), so a notification read for a while
 * still gets its full display time. Time and timers are passed in so the rule can be tested without waiting.
 */
export interface TimerClock {
  now: () => number;
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

// Wrapped so the browser's timer functions are called with their own `this` (a bare method call is an Illegal invocation).
const systemClock: TimerClock = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function pausableTimer(durationMs: number, onDone: () => void, clock: TimerClock = systemClock) {
  let remaining = durationMs;
  let startedAt = 0;
  let handle: unknown;
  const resume = () => {
    if (handle !== undefined) return;
    startedAt = clock.now();
    handle = clock.set(onDone, remaining);
  };
  const pause = () => {
    if (handle === undefined) return;
    clock.clear(handle);
    handle = undefined;
    remaining = Math.max(0, remaining - (clock.now() - startedAt));
  };
  const stop = () => {
    if (handle !== undefined) clock.clear(handle);
    handle = undefined;
  };
  resume();
  return { pause, resume, stop, remaining: () => remaining };
}
