import type { ApiError } from "../model/contract/errors.ts";
import type { CacheKey, DataOf, ParamsOf } from "./cache-keys.ts";

// The cached lists as one immutable snapshot: every change makes a new Map, so views can compare by reference.

export type CacheStatus = "loading" | "success" | "error";

export interface CacheEntry<K extends CacheKey = CacheKey> {
  readonly key: K;
  readonly params: ParamsOf<K>;
  readonly status: CacheStatus;
  /** The last good data (kept while refetching or after a failed refetch). */
  readonly data: DataOf<K> | undefined;
  readonly error: ApiError | undefined;
}

export type CacheSnapshot = ReadonlyMap<string, CacheEntry>;

export const emptySnapshot: CacheSnapshot = new Map();

/** A value's text with object keys sorted and undefined fields left out: equal values, equal texts. */
export const stable = (value: unknown): string =>
  value === null || typeof value !== "object"
    ? (JSON.stringify(value) ?? "undefined")
    : Array.isArray(value)
      ? `[${value.map(stable).join(",")}]`
      : `{${Object.keys(value as object)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
          .join(",")}}`;

/** One entry per key and params (params compared by value, key order ignored). */
export const entryId = <K extends CacheKey>(key: K, params: ParamsOf<K>): string => `${key}:${stable(params)}`;

export const getEntry = <K extends CacheKey>(s: CacheSnapshot, key: K, params: ParamsOf<K>): CacheEntry<K> | undefined =>
  s.get(entryId(key, params)) as CacheEntry<K> | undefined;

export const setEntry = <K extends CacheKey>(s: CacheSnapshot, entry: CacheEntry<K>): CacheSnapshot => {
  const next = new Map(s);
  next.set(entryId(entry.key, entry.params), entry as CacheEntry);
  return next;
};

export const entriesOf = <K extends CacheKey>(s: CacheSnapshot, key: K): CacheEntry<K>[] =>
  [...s.values()].filter((e): e is CacheEntry<K> => e.key === key);

export const hasKey = (s: CacheSnapshot, key: CacheKey): boolean => [...s.values()].some((e) => e.key === key);

/** Rewrites the data of every entry of `key` that has data; entries whose data comes back identical stay as they are. */
export function mapData<K extends CacheKey>(
  s: CacheSnapshot,
  key: K,
  update: (data: DataOf<K>, params: ParamsOf<K>) => DataOf<K>,
): CacheSnapshot {
  let next: Map<string, CacheEntry> | undefined;
  for (const [id, entry] of s) {
    if (entry.key !== key || entry.data === undefined) continue;
    const e = entry as CacheEntry<K>;
    const data = update(e.data as DataOf<K>, e.params);
    if (data === e.data) continue;
    next ??= new Map(s);
    next.set(id, { ...e, data } as CacheEntry);
  }
  return next ?? s;
}
