import type { Clock, TimerId } from "../ports.ts";

/** "patient search debounce 500 ms" (scheduling seed §9): the search runs 500 ms after the last keystroke. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 500;

export interface Debounced<T> {
  /** A new input; only the last one within the delay is delivered. */
  push(value: T): void;
  cancel(): void;
}

export function debounce<T>(clock: Clock, ms: number, deliver: (value: T) => void): Debounced<T> {
  let timer: TimerId | null = null;
  const cancel = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };
  return {
    push(value) {
      cancel();
      timer = clock.setTimeout(() => {
        timer = null;
        deliver(value);
      }, ms);
    },
    cancel,
  };
}
