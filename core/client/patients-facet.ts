import type { Patient, PatientFields } from "../model/patient.ts";
import { CacheKey, type PatientSearchParams } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";
import { debounce, PATIENT_SEARCH_DEBOUNCE_MS, type Debounced } from "./search-debounce.ts";

// The patients facet (accounts seed §2, §4, §5): the patient search and its pages, one patient, saving one, and which
// patient's pages are open (trashing it elsewhere sends the user home). The lists themselves are cache entries
// (CacheKey.PatientSearch, CacheKey.Patients) read through `client.cache`.

export interface PatientsFacet {
  /** Patient search input: fetched 500 ms after the last call ("input debounced 500 ms"). Read it from the cache. */
  search(params: PatientSearchParams): void;
  /** "paging continues while remaining > 0": appends the next page of a search already loaded. */
  nextSearchPage(params: PatientSearchParams): Promise<void>;
  /** One patient: from the cache when there, else loaded (and cached). Rejects with the ApiError. */
  load(patientId: string): Promise<Patient>;
  /** Registers a patient, or changes one (`patientId`); resolves with the answer, rejects with the ApiError. */
  save(fields: PatientFields, patientId?: string): Promise<Patient>;
  /** The patient whose pages are open; trashing it sends the user home. */
  setViewed(patientId: string | null): void;
  readonly viewed: string | null;
}

export interface PatientsControl {
  readonly facet: PatientsFacet;
  readonly searchInput: Debounced<PatientSearchParams>;
}

export function createPatientsFacet(ctx: FacetContext): PatientsControl {
  let viewed: string | null = null;
  const searchInput = debounce<PatientSearchParams>(ctx.clock, PATIENT_SEARCH_DEBOUNCE_MS, (params) => {
    void ctx.cache.fetch(CacheKey.PatientSearch, params).catch(() => undefined);
  });
  const facet: PatientsFacet = {
    search: (params) => searchInput.push(params),
    nextSearchPage: (params) => ctx.cache.fetchNextSearchPage(params),
    async load(patientId) {
      const cached = ctx.cache.get(CacheKey.Patients, { id: patientId })?.data;
      const patient = cached && !Array.isArray(cached) ? cached : await ctx.cache.fetch(CacheKey.Patients, { id: patientId });
      return patient as Patient;
    },
    async save(fields, patientId) {
      if (patientId === undefined) return ctx.api.call("patient.register", { body: fields });
      const saved = await ctx.api.call("patient.update", { query: { id: patientId }, body: fields });
      // The live update event patches the lists too; reading them again also covers a live socket that is down.
      void ctx.cache.refetch(CacheKey.Patients);
      return saved;
    },
    setViewed(patientId) {
      viewed = patientId;
    },
    get viewed() {
      return viewed;
    },
  };
  return { facet, searchInput };
}
