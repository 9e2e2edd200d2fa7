import { useEffect } from "react";
import type { Client } from "../../core/client/client.ts";
import { CacheKey } from "../../core/client/cache-keys.ts";
import type { Patient } from "../../core/model/patient.ts";
import { cachedState, useClient, useClientState } from "./client.ts";

export type PatientLookup =
  | { readonly status: "loading" }
  | { readonly status: "missing" }
  | { readonly status: "found"; readonly patient: Patient };

// A view that mounts many cards at once (the technician view's lanes: a hundred cards in the first paint) names a
// patient on each. Sending each patient's request from the mount itself put some 100 fetch() calls, ~1 ms each, inside
// the frame that first draws the cards (bench:technician). The lookups are queued instead and sent in idle time, a few
// per idle period (the frame goes first; names follow a moment later, as they did when their answers came).

/** Patients waiting for their request, per client. */
const waiting = new Map<Client, Set<string>>();
let scheduled = false;

const whenIdle = (run: (deadline?: IdleDeadline) => void) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 300 });
  else setTimeout(run, 0);
};

const sendWaiting = (deadline?: IdleDeadline) => {
  let sent = 0;
  for (const [client, ids] of waiting) {
    for (const id of ids) {
      // At least one request per idle period, however short it is (or when its timeout ran out).
      if (sent > 0 && deadline && !deadline.didTimeout && deadline.timeRemaining() <= 1) return whenIdle(sendWaiting);
      ids.delete(id);
      sent++;
      if (!client.cache.get(CacheKey.Patients, { id })) client.cache.fetch(CacheKey.Patients, { id }).catch(() => undefined);
    }
    waiting.delete(client);
  }
  scheduled = false;
};

const fetchSoon = (client: Client, id: string) => {
  let ids = waiting.get(client);
  if (!ids) waiting.set(client, (ids = new Set()));
  ids.add(id);
  if (!scheduled) {
    scheduled = true;
    whenIdle(sendWaiting);
  }
};

/**
 * One patient by id from core/client's cache (patient?id, one request per patient however many cards show it; live
 * patient updates patch it), loaded in idle time when not cached yet. "missing" when the server has no such patient for
 * us (trashed or deleted meanwhile). Null id: nothing to look up.
 */
export function usePatient(patientId: string | null | undefined): PatientLookup {
  const client = useClient();
  const id = patientId || null;
  const entry = useClientState((c) => (id === null ? undefined : c.cache.get(CacheKey.Patients, { id })));
  useEffect(() => {
    if (id !== null && !client.cache.get(CacheKey.Patients, { id })) fetchSoon(client, id);
  }, [client, id]);
  const state = cachedState(entry);
  const data = state.data;
  if (data && !Array.isArray(data)) return { status: "found", patient: data as Patient };
  if (state.status === "error") return { status: "missing" };
  return { status: "loading" };
}
