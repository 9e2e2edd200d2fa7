import { CacheKey } from "../../core/client/cache-keys.ts";
import type { Patient } from "../../core/model/patient.ts";
import { useCache } from "./client.ts";

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
  const entry = useCache(CacheKey.Patients, patientId ? { id: patientId } : null);
  const data = entry.data;
  if (data && !Array.isArray(data)) return { status: "found", patient: data as Patient };
  if (entry.status === "error") return { status: "missing" };
  return { status: "loading" };
}
