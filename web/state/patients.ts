import { useCallback, useEffect, useSyncExternalStore } from "react";
import { CacheKey } from "../../core/client/cache-keys.ts";
import type { Patient } from "../../core/model/patient.ts";
import { useClient } from "./client.ts";

export type PatientLookup =
  | { readonly status: "loading" }
  | { readonly status: "missing" }
  | { readonly status: "found"; readonly patient: Patient };

/**
 * One patient by id from core/client's cache (patient?id, one request per patient however many cards show it; live
 * patient updates patch it), loaded when not cached yet. "missing" when the server has no such patient for us (trashed
 * or deleted meanwhile). Null id: nothing to look up.
 */
export function usePatient(patientId: string | null | undefined): PatientLookup {
  const client = useClient();
  const subscribe = useCallback((onChange: () => void) => {
    const listener = (topic: string) => { if (topic === "cache") onChange(); };
    client.events.on("change", listener);
    return () => client.events.off("change", listener);
  }, [client]);
  const entry = useSyncExternalStore(subscribe, () => (patientId ? client.query(CacheKey.Patients, { id: patientId }) : undefined));
  useEffect(() => {
    if (patientId && !client.query(CacheKey.Patients, { id: patientId })) client.fetch(CacheKey.Patients, { id: patientId }).catch(() => undefined);
  }, [client, patientId]);
  const data = entry?.data as Patient | undefined;
  if (data && !Array.isArray(data)) return { status: "found", patient: data };
  if (entry?.status === "error") return { status: "missing" };
  return { status: "loading" };
}
