import { atom, useAtomValue, type createStore } from "jotai";
import { useCallback } from "react";
import { createHttpApi } from "../../adapters/http/index.ts";
import { browserStorage } from "../../adapters/storage/index.ts";
import { browserWebSocket, createLiveSocket } from "../../adapters/socket/index.ts";
import { systemClock } from "../../adapters/clock/index.ts";
import { createClient, type Client, type ClientPorts } from "../../core/client/index.ts";
import type { Notice } from "../../core/scheduling/notice.ts";
import { StorageKeys, type Api, type Storage } from "../../core/ports.ts";
import { accessTokenAtom, sessionEndAtom, type SessionEnd } from "./session.ts";
import { offlineAtom } from "./offline.ts";

// The web's engine is core/client (session, live socket, caches, connectivity) over the adapters. Its mitt events
// are mirrored into jotai atoms here, so screens read atoms and call the client; component tests build the same
// client over a fake Api.

export interface Services {
  /** Absent only where a test provides a bare Api (screens that need the session use `useClient`). */
  readonly client?: Client;
  /** The client's Api: session expiry applied to every call. */
  readonly api: Api;
  readonly storage: Storage;
}

export const servicesAtom = atom<Services | null>(null);
/** Notices announced by core/client (live events: "measurement ready", …); the shell shows them as notifications. */
export const clientNoticeAtom = atom<Notice | null>(null);
/** Where core/client asks the app to go (a viewed patient was trashed elsewhere, or the session ended). */
export const clientNavigateAtom = atom<{ to: "home" | "login"; at: number } | null>(null);

type Store = ReturnType<typeof createStore>;

const endOf = (dialog: Client["session"]["dialog"]): SessionEnd | null =>
  dialog === "session-expired" ? "expired" : dialog === "another-session-opened" ? "another-session" : null;

/** Builds the client over the given ports and keeps the atoms in step with it. Returns a stop function. */
export function bindClient(store: Store, ports: ClientPorts): { client: Client; stop: () => void } {
  const client = createClient(ports);
  const services: Services = { client, api: client.api, storage: ports.storage };
  const syncSession = () => {
    const token = ports.storage.session.get(StorageKeys.session.accessToken);
    store.set(accessTokenAtom, client.session.status === "logged-out" ? null : token);
    store.set(sessionEndAtom, endOf(client.session.dialog));
  };
  const onChange = (topic: string) => {
    if (topic === "session") syncSession();
    if (topic === "connectivity") store.set(offlineAtom, client.offline);
  };
  const onNotice = (notice: Notice) => store.set(clientNoticeAtom, notice);
  const onNavigate = (to: { to: "home" | "login" }) => store.set(clientNavigateAtom, { to: to.to, at: Date.now() });
  client.events.on("change", onChange);
  client.events.on("notice", onNotice);
  client.events.on("navigate", onNavigate);
  store.set(servicesAtom, services);
  syncSession();
  return {
    client,
    stop: () => {
      client.events.off("change", onChange);
      client.events.off("notice", onNotice);
      client.events.off("navigate", onNavigate);
      client.dispose();
    },
  };
}

/** The browser app: fetch and WebSocket to this origin's /api/, session and local storage, the system clock. */
export function startClient(store: Store) {
  const storage = browserStorage();
  const apiBase = new URL("/api/", window.location.origin).href;
  const api = createHttpApi({ apiBase, storage });
  const socket = createLiveSocket({ url: apiBase.replace(/^http/, "ws") + "ws", storage, clock: systemClock, create: browserWebSocket });
  const { client } = bindClient(store, { api, socket, storage, clock: systemClock });
  // "offline is reported only after 2 s; back online clears it at once": core/client applies the debounce.
  window.addEventListener("online", () => client.setOnline(true));
  window.addEventListener("offline", () => client.setOnline(false));
  if (!navigator.onLine) client.setOnline(false);
  void client.start();
}

export function useServices(): Services {
  const services = useAtomValue(servicesAtom);
  if (!services) throw new Error("The client is not started (startClient).");
  return services;
}

export const useApi = (): Api => useServices().api;
export function useClient(): Client {
  const { client } = useServices();
  if (!client) throw new Error("No core/client in the services (bindClient).");
  return client;
}

/** Logs in through core/client (username trimmed); resolves false after "Login failed.". */
export function useLogin() {
  const client = useClient();
  return useCallback((username: string, password: string) => client.login(username.trim(), password), [client]);
}

/** "Logout calls the server; local logout happens regardless of outcome." (core/client) */
export function useLogout() {
  const client = useClient();
  return useCallback(() => client.logout(), [client]);
}
