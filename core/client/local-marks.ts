import { Result, type Schema } from "effect";
import { decodeJson } from "../model/decode.ts";
import { Eye } from "../model/enums.ts";
import {
  BaselineResultIdsSchema,
  PinnedSwimlanesSchema,
  UnreliableResultIdsSchema,
  type BaselineResultIds,
} from "../model/local-storage.ts";
import { StorageKeys, type KeyValueStore } from "../ports.ts";
import { togglePin } from "../scheduling/pinned-lanes.ts";

// Marks kept in the browser's local storage (scheduling seed §3 "Browser storage", §4 "Measurement flags"): pinned
// lanes, unreliable result ids and the baseline pair (left id, right id). Stored values are decoded on read; a broken
// value reads as empty rather than breaking the page.

const read = <T>(store: KeyValueStore, key: string, schema: Schema.Codec<T, unknown, never, never>, fallback: T): T => {
  const text = store.get(key);
  if (text === null) return fallback;
  const decoded = decodeJson(schema, text);
  return Result.isSuccess(decoded) ? decoded.success : fallback;
};

export const readPinned = (store: KeyValueStore): readonly string[] =>
  read(store, StorageKeys.local.pinnedSwimlanes, PinnedSwimlanesSchema as never, [] as readonly string[]);

export function togglePinned(store: KeyValueStore, deviceSn: string): readonly string[] {
  const next = togglePin(readPinned(store), deviceSn);
  store.set(StorageKeys.local.pinnedSwimlanes, JSON.stringify(next));
  return next;
}

export const readUnreliable = (store: KeyValueStore): readonly string[] =>
  read(store, StorageKeys.local.unreliableResultIds, UnreliableResultIdsSchema as never, [] as readonly string[]);

export const readBaseline = (store: KeyValueStore): BaselineResultIds =>
  read(store, StorageKeys.local.baselineResultIds, BaselineResultIdsSchema as never, [null, null] as BaselineResultIds);

/** The baseline pair index of an eye: "stored as a pair (left id, right id)". */
const slotOf = (eye: Eye): 0 | 1 | undefined => (eye === Eye.Left ? 0 : eye === Eye.Right ? 1 : undefined);

/** "Baseline: at most one per eye; toggling the same id clears it." */
export function toggleBaselinePair(pair: BaselineResultIds, eye: Eye, measurementId: string): BaselineResultIds {
  const slot = slotOf(eye);
  if (slot === undefined) return pair;
  const next: [string | null, string | null] = [pair[0], pair[1]];
  next[slot] = pair[slot] === measurementId ? null : measurementId;
  return next;
}

export function toggleBaseline(store: KeyValueStore, eye: Eye, measurementId: string): BaselineResultIds {
  const next = toggleBaselinePair(readBaseline(store), eye, measurementId);
  store.set(StorageKeys.local.baselineResultIds, JSON.stringify(next));
  return next;
}

/** "Marking it reliable again also clears a baseline mark"; marking unreliable excludes it from the chart. */
export function setUnreliable(store: KeyValueStore, measurementId: string, unreliable: boolean): readonly string[] {
  const current = readUnreliable(store);
  const next = unreliable
    ? current.includes(measurementId)
      ? current
      : [...current, measurementId]
    : current.filter((id) => id !== measurementId);
  store.set(StorageKeys.local.unreliableResultIds, JSON.stringify(next));
  if (!unreliable) {
    const pair = readBaseline(store);
    if (pair.includes(measurementId))
      store.set(StorageKeys.local.baselineResultIds, JSON.stringify(pair.map((id) => (id === measurementId ? null : id))));
  }
  return next;
}
