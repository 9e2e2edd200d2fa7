// The ports: everything core/ needs from the outside world (time, storage, network) comes in through these.
// Implementations live in adapters/ (browser and node) and in test fakes.
import type { Endpoint, RequestOf, ResponseOf } from "./model/contract/index.ts";
import type { LiveMessage } from "./model/live.ts";
import type { SocketState } from "./model/enums.ts";

export type { ApiError } from "./model/contract/errors.ts";

/** Opaque timer handle: whatever the adapter's timer function returns. Only pass it back to the same Clock. */
export type TimerId = unknown;

/** Time and timers. `now()` is epoch milliseconds. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(fn: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
}

/** One string-valued store (browser sessionStorage/localStorage, or a node file/in-memory map). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** Session storage lives for the tab (access token); local storage survives restarts. */
export interface Storage {
  readonly session: KeyValueStore;
  readonly local: KeyValueStore;
}

/**
 * Exactly the browser storage keys of the seeds (scheduling §3 "Browser storage", accounts §3 "Client settings in
 * local storage ... Other local keys"). The key strings are our choice; values are JSON unless noted.
 */
export const StorageKeys = {
  session: {
    /** Access token (raw JWT-like string, not JSON). */
    accessToken: "accessToken",
  },
  local: {
    /** Interface language code (raw string, one of enums.Languages). */
    language: "language",
    /** ClientSettings JSON (core/model/client-settings.ts). */
    clientSettings: "clientSettings",
    /** JSON array of pinned device serial numbers (swimlanes). */
    pinnedSwimlanes: "pinnedSwimlanes",
    /** JSON record patientId -> last used measurement configuration. */
    patientTestConfigurations: "patientTestConfigurations",
    /** JSON array of measurement ids marked unreliable. */
    unreliableResultIds: "unreliableResultIds",
    /** JSON pair [leftId, rightId] (each string or null): the baseline per eye. */
    baselineResultIds: "baselineResultIds",
    /** The v2 scheduling key (appointment variant flag), JSON boolean. */
    schedulingV2: "schedulingV2",
  },
} as const;

/**
 * The REST API, typed by core/model/contract. Resolves with the response `data` (decoded);
 * rejects with ApiError (core/model/contract/errors.ts). An adapter stores any accessToken the
 * response carries (seeds: "Any response with an accessToken field stores it in session storage").
 */
export interface Api {
  call<E extends Endpoint>(endpoint: E, input: RequestOf<E>): Promise<ResponseOf<E>>;
}

/** The live socket (browser or node). Messages are decoded LiveMessage values. */
export interface Socket {
  readonly state: SocketState;
  connect(): void;
  send(message: LiveMessage): void;
  /** Returns an unsubscribe function. */
  subscribe(listener: (message: LiveMessage) => void): () => void;
  /** Returns an unsubscribe function. */
  onState(listener: (state: SocketState) => void): () => void;
  close(): void;
}
