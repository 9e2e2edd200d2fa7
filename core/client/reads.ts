import { ApiError } from "../model/contract/errors.ts";
import type { Endpoint, RequestOf, ResponseOf } from "../model/contract/index.ts";
import type { Api } from "../ports.ts";
import { stable, type CacheStatus } from "./cache-snapshot.ts";

// Reads that are not among the seeds' caches (the audit trail's pages, the enrolled headsets, the user's profile, the
// latest results, a stand-alone run): kept by call and input beside the caches, so the web reads them through the same
// hook. Live events do not patch them; `reload` reads them again after a change the server does not announce.

export interface ReadEntry<E extends Endpoint = Endpoint> {
  readonly status: CacheStatus;
  /** The last good answer (kept while reloading or after a failed reload). */
  readonly data: ResponseOf<E> | undefined;
  readonly error: ApiError | undefined;
}

export interface Reads {
  get<E extends Endpoint>(endpoint: E, input: RequestOf<E>): ReadEntry<E> | undefined;
  /** Loads (or reloads) one read; resolves with its answer, rejects with the ApiError. The latest load wins. */
  load<E extends Endpoint>(endpoint: E, input: RequestOf<E>): Promise<ResponseOf<E>>;
  /** Reads every kept read of a call again (failures stay in the entries). */
  reload(endpoint: Endpoint): Promise<void>;
  clear(): void;
}

export function createReads(api: Api, onChange: () => void): Reads {
  const entries = new Map<string, { endpoint: Endpoint; input: unknown; entry: ReadEntry; sent: number }>();
  let sent = 0;
  const idOf = (endpoint: Endpoint, input: unknown) => `${endpoint}:${stable(input)}`;
  const set = (id: string, endpoint: Endpoint, input: unknown, entry: ReadEntry, at: number) => {
    entries.set(id, { endpoint, input, entry, sent: at });
    onChange();
  };

  function load<E extends Endpoint>(endpoint: E, input: RequestOf<E>): Promise<ResponseOf<E>> {
    const id = idOf(endpoint, input);
    const at = ++sent;
    set(id, endpoint, input, { status: "loading", data: entries.get(id)?.entry.data, error: undefined }, at);
    // An answer to an older load of the same read, or one that arrives after `clear`, changes nothing.
    const current = () => entries.get(id)?.sent === at;
    return api.call(endpoint, input).then(
      (data) => {
        if (current()) set(id, endpoint, input, { status: "success", data, error: undefined }, at);
        return data;
      },
      (e: unknown) => {
        const error = e instanceof ApiError ? e : new ApiError({ status: 0, responseType: undefined, message: String(e) });
        if (current()) set(id, endpoint, input, { status: "error", data: entries.get(id)?.entry.data, error }, at);
        throw error;
      },
    );
  }

  return {
    get: (endpoint, input) => entries.get(idOf(endpoint, input))?.entry as ReadEntry<never> | undefined,
    load,
    async reload(endpoint) {
      const kept = [...entries.values()].filter((e) => e.endpoint === endpoint);
      await Promise.all(kept.map((e) => load(endpoint, e.input as never).catch(() => undefined)));
    },
    clear() {
      if (entries.size === 0) return;
      entries.clear();
      onChange();
    },
  };
}
