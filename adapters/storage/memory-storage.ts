import type { KeyValueStore, Storage } from "../../core/ports.ts";

/** A store in a Map: tests, and the CLI when nothing should outlive the process. */
export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const map = new Map(Object.entries(initial));
  return {
    get: (key) => map.get(key) ?? null,
    set: (key, value) => void map.set(key, value),
    remove: (key) => void map.delete(key),
  };
}

export const memoryStorage = (): Storage => ({ session: memoryStore(), local: memoryStore() });
