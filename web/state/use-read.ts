import { useEffect } from "react";
import type { Endpoint, RequestOf, ResponseOf } from "../../core/model/contract/index.ts";
import { stable } from "../../core/client/cache-snapshot.ts";
import { useClient, useClientState } from "./client.ts";
import type { CachedState } from "./use-cached.ts";

/**
 * One read beside the seeds' caches (core/client `reads`), through `useClientState`: loaded when not kept yet and
 * whenever `input` changes (compared by value); shaped like `useCachedQuery` (a reload keeps the answer shown).
 * `client.reads.reload(endpoint)` reads it again. Null input: nothing to read.
 */
export function useRead<E extends Endpoint>(endpoint: E, input: RequestOf<E> | null): CachedState<ResponseOf<E>> {
  const client = useClient();
  const id = input === null ? null : stable(input);
  const entry = useClientState((c) => (input === null ? undefined : c.reads.get(endpoint, input)));
  useEffect(() => {
    if (input !== null && !client.reads.get(endpoint, input)) client.reads.load(endpoint, input).catch(() => undefined);
    // `id` stands for `input` by value
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, endpoint, id]);
  if (entry?.data !== undefined) return { status: "success", data: entry.data, error: undefined };
  if (entry?.status === "error") return { status: "error", data: undefined, error: entry.error };
  return { status: "loading", data: undefined, error: undefined };
}
