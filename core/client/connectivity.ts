import type { Clock, TimerId } from "../ports.ts";

// "Connectivity: offline is reported only after 2 s; back online clears it at once." (accounts seed §4, §9)

export const OFFLINE_DEBOUNCE_MS = 2_000;

export interface Connectivity {
  /** True once the platform has said offline for 2 s without saying online again. */
  readonly offline: boolean;
  /** The platform's online/offline signal (browser: window online/offline events, navigator.onLine). */
  setOnline(online: boolean): void;
  dispose(): void;
}

export function createConnectivity(clock: Clock, onChange: (offline: boolean) => void): Connectivity {
  let offline = false;
  let pending: TimerId | null = null;
  const cancel = () => {
    if (pending !== null) clock.clearTimeout(pending);
    pending = null;
  };
  return {
    get offline() {
      return offline;
    },
    setOnline(online) {
      if (online) {
        cancel();
        if (offline) {
          offline = false;
          onChange(false);
        }
        return;
      }
      if (offline || pending !== null) return;
      pending = clock.setTimeout(() => {
        pending = null;
        offline = true;
        onChange(true);
      }, OFFLINE_DEBOUNCE_MS);
    },
    dispose: cancel,
  };
}
