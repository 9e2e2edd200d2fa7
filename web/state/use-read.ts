import { useEffect } from "react";
import type { Endpoint, RequestOf, ResponseOf } from "../../core/model/contract/index.ts";
import { stable } from "../../core/client/cache-snapshot.ts";
import { cachedState, useClient, useClientState, type CachedState } from "./client.ts";

/**
 * One read beside the seeds' caches (core/client `reads`), through `useClientState`: loaded when not kept yet and
 * whenever `input` changes (compared by value); shaped like `useCache` (a reload keeps the answer shown).
 * `client.reads.reload(endpoint)` reads it again. Null input: nothing to read.
 */
export function useRead<E extends Endpoint>(endpoint: E, input: RequestOf<E> | null): CachedState<ResponseOf<E>> {
  const client = useClient();
  const id = input === null ? null : stable(input);
  const entry = useClientState((c) => (input === null ? undefined : c.reads.get(endpoint, input)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `id` stands for `input` by value (a new object each render)
  useEffect(() => {
    if (input !== null && !client.reads.get(endpoint, input)) client.reads.load(endpoint, input).catch(() => undefined);
  }, [client, endpoint, id]);
  return cachedState<ResponseOf<E>>(entry) as CachedState<ResponseOf<E>>;
}
