import { useStore, type createStore } from "jotai";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { createHttpApi } from "../../adapters/http/index.ts";
import { browserStorage } from "../../adapters/storage/index.ts";
import { browserWebSocket, createLiveSocket } from "../../adapters/socket/index.ts";
import { systemClock } from "../../adapters/clock/index.ts";
import { createClient, type CacheKey, type Client, type ClientPorts, type DataOf, type ParamsOf } from "../../core/client/index.ts";
import { subscribeEachFrame } from "./frame-pace.ts";
import { clientAtom } from "./client-atom.ts";

// The web's engine is core/client (session, live socket, caches, lanes, devices, marks) over the adapters. Screens
// read it with one hook, `useClientState`, and act through its facets' commands; component tests build the same
// client over a fake Api. The jotai store only carries the client to the components. `useCache` (here) and `useRead`
// (use-read.ts) are `useClientState` over one cache entry or one read, loading it when the client has none yet.
// This module and what it imports load after /login's first paint (lazy-client.ts `loadClient`).

export { clientAtom };

type Store = ReturnType<typeof createStore>;

/** Builds the client over the given ports and hands it to the components of `store`. Returns a stop function. */
export function bindClient(store: Store, ports: ClientPorts): { client: Client; stop: () => void } {
  const client = createClient(ports);
  store.set(clientAtom, client);
  return { client, stop: () => client.dispose() };
}

/** The browser app: fetch and WebSocket to this origin's /api/, session and local storage, the system clock. */
export function startClient(store: Store): Client {
  const storage = browserStorage();
  const apiBase = new URL("/api/", window.location.origin).href;
  const api = createHttpApi({ apiBase, storage });
  const socket = createLiveSocket({ url: apiBase.replace(/^http/, "ws") + "ws", storage, clock: systemClock, create: browserWebSocket });
  const { client } = bindClient(store, { api, socket, storage, clock: systemClock });
  // "offline is reported only after 2 s; back online clears it at once": core/client applies the debounce.
  window.addEventListener("online", () => client.session.setOnline(true));
  window.addEventListener("offline", () => client.session.setOnline(false));
  if (!navigator.onLine) client.session.setOnline(false);
  void client.session.start();
  return client;
}

const subscribeClient = (store: Store) => (onChange: () => void) => store.sub(clientAtom, onChange);

/**
 * The client, for its commands. Reading its state goes through `useClientState`, which re-renders on changes.
 * Read from the store with useSyncExternalStore, not jotai's useAtomValue: that one schedules a render of its component
 * from its mount effect (React 19 does not skip a reducer's dispatch that changes nothing), so every card, lane and
 * patient name rendered twice as the technician view mounted, the second time in the task before its first paint.
 */
export function useClient(): Client {
  const store = useStore();
  const subscribe = useMemo(() => subscribeClient(store), [store]);
  const client = useSyncExternalStore(subscribe, () => store.get(clientAtom));
  if (!client) throw new Error("The client is not started (loadClient or bindClient).");
  return client;
}

/** How often a reader hears of changes: at each, or at most once per animation frame (the technician view's lanes,
 * which streaming headsets change ~70 times a second; see frame-pace.ts). */
export type Pace = "change" | "frame";

/**
 * The one way a screen reads core/client: `read` picks what the screen shows, and the screen re-renders when a change
 * the client announces makes `read` answer something else (`equal`, Object.is by default). `read` runs again only
 * when the client's revision grew or `read` itself changed, so it may build new objects.
 */
export function useClientState<T>(read: (client: Client) => T, equal: (a: T, b: T) => boolean = Object.is, pace: Pace = "change"): T {
  const client = useClient();
  const kept = useRef<{ readonly revision: number; readonly read: (client: Client) => T; readonly value: T } | null>(null);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (pace === "frame") return subscribeEachFrame(client, onChange);
      client.events.on("change", onChange);
      return () => client.events.off("change", onChange);
    },
    [client, pace],
  );
  const snapshot = () => {
    const last = kept.current;
    if (last && last.revision === client.revision && last.read === read) return last.value;
    const value = read(client);
    const same = last !== null && equal(last.value, value);
    kept.current = { revision: client.revision, read, value: same ? last.value : value };
    return kept.current.value;
  };
  return useSyncExternalStore(subscribe, snapshot);
}

/** Objects with the same fields holding the same values (for reads that build a new object each time). */
export function sameFields<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as Array<keyof T>;
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}

/** The client's Api (session expiry applied), for the single calls no facet has a command for. */
export const useApi = () => useClient().api;

/** What a screen shows of one cache entry or read: loading until the first data, error only when there is no data to
 * show. After a failed reload the last data stays, with that reload's `error`. */
export type CachedState<T> =
  | { status: "loading"; data: undefined; error: undefined }
  | { status: "error"; data: undefined; error: unknown }
  | { status: "success"; data: T; error: unknown };

/** The state of an entry as the client keeps it (cache entry or read). */
export function cachedState<T>(entry: { readonly status: string; readonly data: T | undefined; readonly error: unknown } | undefined) {
  const state: CachedState<Exclude<T, undefined>> =
    entry?.data !== undefined
      ? { status: "success", data: entry.data as Exclude<T, undefined>, error: entry.status === "error" ? entry.error : undefined }
      : entry?.status === "error"
        ? { status: "error", data: undefined, error: entry.error }
        : { status: "loading", data: undefined, error: undefined };
  return state;
}

/**
 * One of the seeds' caches (core/client `cache`; live events patch it: insert, update, trash, restore, delete), read
 * with `useClientState` and loaded when not cached yet. `params` is compared by value; null params: nothing to read
 * yet (loading).
 */
export function useCache<K extends CacheKey>(key: K, params: ParamsOf<K> | null): CachedState<DataOf<K>> {
  const client = useClient();
  const id = params === null ? null : JSON.stringify(params);
  // Entries live in an immutable snapshot, so the same entry object comes back until it changes.
  const entry = useClientState((c) => (id === null ? undefined : c.cache.get(key, JSON.parse(id) as ParamsOf<K>)));
  useEffect(() => {
    if (id === null) return;
    const p = JSON.parse(id) as ParamsOf<K>;
    if (!client.cache.get(key, p)) client.cache.fetch(key, p).catch(() => undefined);
  }, [client, key, id]);
  return cachedState<DataOf<K>>(entry) as CachedState<DataOf<K>>;
}
