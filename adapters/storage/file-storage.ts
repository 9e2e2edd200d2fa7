import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { KeyValueStore, Storage } from "../../core/ports.ts";
import { memoryStore } from "./memory-storage.ts";

/**
 * A store kept in one JSON file (Node: the CLI's local settings). Read once, written whole on each change through a
 * temporary file and a rename, so a crash never leaves half a file.
 */
export function fileStore(path: string): KeyValueStore {
  let map: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") map[k] = v;
  } catch {
    map = {};
  }
  const save = () => {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(map, null, 2));
    renameSync(tmp, path);
  };
  return {
    get: (key) => map[key] ?? null,
    set: (key, value) => {
      map[key] = value;
      save();
    },
    remove: (key) => {
      if (!(key in map)) return;
      delete map[key];
      save();
    },
  };
}

/**
 * Node storage: local storage in a file; session storage in memory by default (a CLI run is one session), or in a
 * second file when a token should survive between commands.
 */
export function fileStorage(localPath: string, sessionPath?: string): Storage {
  return { local: fileStore(localPath), session: sessionPath ? fileStore(sessionPath) : memoryStore() };
}
