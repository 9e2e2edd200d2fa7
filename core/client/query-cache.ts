import { ApiError } from "../model/contract/errors.ts";
import type { Api } from "../ports.ts";
import { CacheKey, PATIENT_SEARCH_PAGE_SIZE, fetchers, type DataOf, type ParamsOf, type PatientSearchParams } from "./cache-keys.ts";
import { emptySnapshot, entriesOf, entryId, getEntry, setEntry, type CacheEntry, type CacheSnapshot } from "./cache-snapshot.ts";

// The stateful side of the caches: loads entries through the Api, keeps one request in flight per entry, and publishes
// every new snapshot. Live events and optimistic commands replace the snapshot through `update`.
//
// A response can be older than a live event that arrived while it was on its way (the server read the lanes, then a
// measurement was registered and announced before the response came): setting the response as it is would lose the
// event for good, since nothing announces it again. So live events are also kept per request in flight and replayed
// onto its response; the reducer's changes are idempotent (an insert of a card the response has already replaces it).

export interface QueryCache {
  readonly snapshot: CacheSnapshot;
  get<K extends CacheKey>(key: K, params: ParamsOf<K>): CacheEntry<K> | undefined;
  /** Loads (or reloads) one entry; resolves with its data, rejects with the ApiError. */
  fetch<K extends CacheKey>(key: K, params: ParamsOf<K>): Promise<DataOf<K>>;
  /** Reloads every cached entry of a key (failures stay in the entries). */
  refetch(key: CacheKey): Promise<void>;
  /** "paging continues while remaining > 0": appends the next page of a search already loaded. */
  fetchNextSearchPage(params: PatientSearchParams): Promise<void>;
  update(change: (s: CacheSnapshot) => CacheSnapshot): void;
  /** A live event's change: applied now, and replayed onto the responses of requests in flight. */
  applyEvent(change: (s: CacheSnapshot) => CacheSnapshot): void;
  clear(): void;
}

export function createQueryCache(
  api: Api,
  onChange: (snapshot: CacheSnapshot) => void,
  onLoaded: <K extends CacheKey>(key: K, data: DataOf<K>) => void = () => {},
): QueryCache {
  let snapshot = emptySnapshot;
  let generation = 0;
  const inFlight = new Map<string, Promise<unknown>>();
  /** Per request in flight, the live events' changes that arrived since it was sent. */
  const missed = new Map<string, Array<(s: CacheSnapshot) => CacheSnapshot>>();

  /** The response's entry with the events it may predate replayed onto it (onto that entry alone). */
  const withMissed = <K extends CacheKey>(id: string, entry: CacheEntry<K>): CacheEntry<K> => {
    const changes = missed.get(id) ?? [];
    missed.delete(id);
    let alone: CacheSnapshot = new Map([[id, entry as CacheEntry]]);
    for (const change of changes) alone = change(alone);
    return (alone.get(id) as CacheEntry<K> | undefined) ?? entry;
  };

  const publish = (next: CacheSnapshot) => {
    if (next === snapshot) return;
    snapshot = next;
    onChange(snapshot);
  };

  function fetch<K extends CacheKey>(key: K, params: ParamsOf<K>): Promise<DataOf<K>> {
    const id = entryId(key, params);
    const running = inFlight.get(id);
    if (running) return running as Promise<DataOf<K>>;
    const gen = generation;
    const before = getEntry(snapshot, key, params);
    publish(setEntry(snapshot, { key, params, status: "loading", data: before?.data, error: undefined }));
    missed.set(id, []);
    const promise = fetchers[key](api, params).then(
      (data) => {
        inFlight.delete(id);
        if (gen !== generation) return data;
        const entry = withMissed(id, { key, params, status: "success", data, error: undefined });
        publish(setEntry(snapshot, entry));
        onLoaded(key, entry.data as DataOf<K>);
        return entry.data as DataOf<K>;
      },
      (e: unknown) => {
        inFlight.delete(id);
        missed.delete(id);
        const error = e instanceof ApiError ? e : new ApiError({ status: 0, responseType: undefined, message: String(e) });
        if (gen === generation)
          publish(setEntry(snapshot, { key, params, status: "error", data: getEntry(snapshot, key, params)?.data, error }));
        throw error;
      },
    );
    inFlight.set(id, promise);
    return promise;
  }

  return {
    get snapshot() {
      return snapshot;
    },
    get: (key, params) => getEntry(snapshot, key, params),
    fetch,
    async refetch(key) {
      // A request already in flight may have been read before what prompted this refetch: ask once more after it.
      const again = (e: CacheEntry) => {
        const running = inFlight.get(entryId(key, e.params));
        const fresh = () => fetch(key, e.params);
        return running ? running.then(fresh, fresh) : fresh();
      };
      await Promise.all(entriesOf(snapshot, key).map((e) => again(e).catch(() => undefined)));
    },
    async fetchNextSearchPage(params) {
      const entry = getEntry(snapshot, CacheKey.PatientSearch, params);
      if (!entry?.data || entry.data.remaining <= 0) return;
      const gen = generation;
      const page = await api.call("patient.search", {
        body: { filter: { name: params.name, birthdate: params.birthdate }, page: entry.data.page + 1, quantity: PATIENT_SEARCH_PAGE_SIZE },
      });
      const current = getEntry(snapshot, CacheKey.PatientSearch, params);
      if (gen !== generation || !current?.data) return;
      const seen = new Set(current.data.entries.map((p) => p.id));
      publish(
        setEntry(snapshot, {
          ...current,
          data: {
            entries: [...current.data.entries, ...page.entries.filter((p) => !seen.has(p.id))],
            remaining: page.remaining,
            page: page.page,
          },
        }),
      );
    },
    update: (change) => publish(change(snapshot)),
    applyEvent(change) {
      for (const changes of missed.values()) changes.push(change);
      publish(change(snapshot));
    },
    clear() {
      generation += 1;
      inFlight.clear();
      missed.clear();
      publish(emptySnapshot);
    },
  };
}
