import { atom, useAtomValue, useSetAtom, type createStore } from "jotai";
import { useCallback } from "react";
import { createHttpApi } from "../../adapters/http/index.ts";
import { browserStorage } from "../../adapters/storage/index.ts";
import { contract, isApiError } from "../../core/model/contract/index.ts";
import { StorageKeys, type Api, type Storage } from "../../core/ports.ts";
import { accessTokenAtom, sessionEndAtom, type SessionEnd } from "./session.ts";

// The web's connection to the backend: the Api port (adapters/http) over browser storage (adapters/storage).
// Screens reach it through atoms, so component tests can put a fake Api in the store.

export interface Services {
  readonly api: Api;
  readonly storage: Storage;
}

export const servicesAtom = atom<Services | null>(null);

type Store = ReturnType<typeof createStore>;

/**
 * "A token-expired or token-verification-error event, or any 4xx response above 400 and below 500, shows the
 * session-expired dialog" (accounts seed §4). Our reading, for calls made with the session token: a 401 ends the
 * session unless it is a wrong old password (password change). Other 4xx answers (403 forbidden, 404 a record gone,
 * 409 a conflict, 429 too many attempts) concern the request, not the session, and the screens explain them.
 */
export function endsSession(auth: string, status: number, responseType: string | undefined): SessionEnd | null {
  if (auth !== "bearer") return null;
  if (responseType === "token_expired" || responseType === "token_verification_error") return "expired";
  if (status === 401 && responseType !== "invalid_credentials") return "expired";
  return null;
}

/** Wraps the Api so that every call keeps the token atom in step and reports a session the server ended. */
export function sessionAwareApi(api: Api, storage: Storage, onToken: (t: string | null) => void, onEnd: (end: SessionEnd) => void): Api {
  const specs = contract as Record<string, { auth: string }>;
  return {
    async call(endpoint, input) {
      try {
        return await api.call(endpoint, input);
      } catch (error) {
        const end = isApiError(error) ? endsSession(specs[endpoint as string]?.auth ?? "bearer", error.status, error.responseType) : null;
        if (end && storage.session.get(StorageKeys.session.accessToken)) {
          storage.session.remove(StorageKeys.session.accessToken);
          onEnd(end);
        }
        throw error;
      } finally {
        onToken(storage.session.get(StorageKeys.session.accessToken));
      }
    },
  };
}

export function createServices(store: Store, apiBase: string, storage: Storage = browserStorage(), fetchFn?: typeof fetch): Services {
  const raw = createHttpApi({ apiBase, storage, ...(fetchFn ? { fetch: fetchFn } : {}) });
  const api = sessionAwareApi(raw, storage, (t) => store.set(accessTokenAtom, t), (end) => store.set(sessionEndAtom, end));
  return { api, storage };
}

export function startClient(store: Store) {
  const services = createServices(store, new URL("/api/", window.location.origin).href);
  store.set(servicesAtom, services);
  store.set(accessTokenAtom, services.storage.session.get(StorageKeys.session.accessToken));
}

export function useServices(): Services {
  const services = useAtomValue(servicesAtom);
  if (!services) throw new Error("The client is not started (startClient).");
  return services;
}

export const useApi = (): Api => useServices().api;

/** Logs in; the adapter stores the token from the answer. Throws the ApiError on failure (token cleared). */
export function useLogin() {
  const { api, storage } = useServices();
  const setToken = useSetAtom(accessTokenAtom);
  return useCallback(async (username: string, password: string) => {
    try {
      const { accessToken } = await api.call("login", { body: { username: username.trim(), password } });
      storage.session.set(StorageKeys.session.accessToken, accessToken);
      setToken(accessToken);
    } catch (error) {
      storage.session.remove(StorageKeys.session.accessToken);
      setToken(null);
      throw error;
    }
  }, [api, storage, setToken]);
}

/** "Logout calls the server; local logout happens regardless of outcome." (accounts seed §4) */
export function useLogout() {
  const { api, storage } = useServices();
  const setToken = useSetAtom(accessTokenAtom);
  return useCallback(async () => {
    try { await api.call("logout", {}); } catch { /* logged out locally regardless */ }
    storage.session.remove(StorageKeys.session.accessToken);
    setToken(null);
  }, [api, storage, setToken]);
}
