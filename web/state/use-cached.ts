import { useEffect } from "react";
import type { CacheKey, ParamsOf } from "../../core/client/index.ts";
import type { CacheEntry } from "../../core/client/cache-snapshot.ts";
import { useClient, useClientState } from "./client.ts";

/**
 * One list from core/client's caches, kept current by live events (insert, update, trash, restore, delete patch it),
 * read with `useClientState`. Loads the entry when it is not cached yet. `params` is compared by value; null params:
 * nothing to read yet.
 */
export function useCached<K extends CacheKey>(key: K, params: ParamsOf<K> | null): CacheEntry<K> | undefined {
  const client = useClient();
  const id = params === null ? null : JSON.stringify(params);
  // Entries live in an immutable snapshot, so the same entry object comes back until it changes.
  const entry = useClientState((c) => (id === null ? undefined : c.cache.get(key, JSON.parse(id) as ParamsOf<K>)));
  useEffect(() => {
    if (id === null) return;
    const p = JSON.parse(id) as ParamsOf<K>;
    if (!client.cache.get(key, p)) client.cache.fetch(key, p).catch(() => undefined);
  }, [client, key, id]);
  return entry;
}

export type CachedState<T> =
  | { status: "loading"; data: undefined; error: undefined }
  | { status: "error"; data: undefined; error: unknown }
  | { status: "success"; data: T; error: undefined };

/** `useCached` shaped like a query: loading until the first data, error only when there is no data to show. */
export function useCachedQuery<K extends CacheKey>(key: K, params: ParamsOf<K>): CachedState<NonNullable<CacheEntry<K>["data"]>> {
  const entry = useCached(key, params);
  if (entry?.data !== undefined) return { status: "success", data: entry.data as NonNullable<CacheEntry<K>["data"]>, error: undefined };
  if (entry?.status === "error") return { status: "error", data: undefined, error: entry.error };
  return { status: "loading", data: undefined, error: undefined };
}
