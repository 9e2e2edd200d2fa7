import type { KeyValueStore, Storage } from "../../core/ports.ts";

/** The subset of the DOM Storage interface we use (window.sessionStorage / window.localStorage). */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Wraps a DOM storage; writes that fail (quota, private mode) are dropped rather than breaking the page. */
export function webStore(storage: WebStorageLike): KeyValueStore {
  return {
    get: (key) => {
      try {
        return storage.getItem(key);
      } catch {
        return null;
      }
    },
    set: (key, value) => {
      try {
        storage.setItem(key, value);
      } catch {
        // quota exceeded or storage disabled: the value lives only in memory state
      }
    },
    remove: (key) => {
      try {
        storage.removeItem(key);
      } catch {
        // storage disabled
      }
    },
  };
}

/** "access token in session storage; ... in local storage" (scheduling seed §3 "Browser storage"). */
export function browserStorage(
  host: { sessionStorage: WebStorageLike; localStorage: WebStorageLike } = globalThis as unknown as {
    sessionStorage: WebStorageLike;
    localStorage: WebStorageLike;
  },
): Storage {
  return { session: webStore(host.sessionStorage), local: webStore(host.localStorage) };
}
