import { type createStore, useAtomValue } from "jotai";
import { useCallback, useSyncExternalStore } from "react";
import type { Client } from "../../core/client/client.ts";
import { StorageKeys } from "../../core/ports.ts";
import { loadFullCatalog } from "../i18n/activate.ts";
import { clientAtom } from "./client-atom.ts";

// The first paint of /login downloads only what the login page needs (issue 18 §5): core/client, the HTTP adapter
// (effect Schema, the contract) and the live socket load with the first thing that needs them: a stored session at
// start-up, a protected or account page, or the login form's submit. This module is what the entry knows of them.

export { clientAtom, clientOverlays } from "./client-atom.ts";

type Store = ReturnType<typeof createStore>;
const loading = new WeakMap<Store, Promise<Client>>();

/**
 * The client of `store`: the one already bound (component tests bind theirs over a fake Api), else the browser app's,
 * downloaded with the full catalog and started once (web/state/start-client.ts `startClient`). A failed download may
 * be retried.
 */
export function loadClient(store: Store): Promise<Client> {
  const bound = store.get(clientAtom);
  if (bound) return Promise.resolve(bound);
  let started = loading.get(store);
  if (!started) {
    // With the full catalog: every screen the client brings (the protected area, the overlays) has its messages
    // (web/i18n/activate.ts). Both download at once; the client is bound, and those screens render, once both are in.
    started = Promise.all([import("./start-client.ts"), loadFullCatalog()]).then(([{ startClient }]) => startClient(store));
    loading.set(store, started);
    started.catch(() => loading.delete(store));
  }
  return started;
}

/** Whether this tab holds an access token (a session to resume), read without the client. */
export function hasStoredSession(): boolean {
  try {
    return sessionStorage.getItem(StorageKeys.session.accessToken) !== null;
  } catch {
    return false;
  }
}

/** The access token while logged in, else null; null as well while no client is loaded (nobody has logged in). */
export function useAccessToken(): string | null {
  const client = useAtomValue(clientAtom);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!client) return () => undefined;
      client.events.on("change", onChange);
      return () => client.events.off("change", onChange);
    },
    [client],
  );
  return useSyncExternalStore(subscribe, () => client?.session.accessToken ?? null);
}
