import type { Api } from "../ports.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Device } from "../model/device.ts";
import type { Examination } from "../model/examination.ts";
import type { Measurement } from "../model/measurement.ts";
import type { Organisation } from "../model/organisation.ts";
import type { Patient } from "../model/patient.ts";
import type { Template } from "../model/template.ts";
import type { User } from "../model/user.ts";
import type { TestType } from "../model/enums.ts";

// The seeds' client cache keys are an enumeration of the model (core/model/enums.ts); the client keys its caches by them.
import { CacheKey } from "../model/enums.ts";
export { CacheKey };

/** The filter of one patient-search list; its pages accumulate while remaining > 0. */
export interface PatientSearchParams {
  readonly name: string;
  readonly birthdate: string | null;
}
/** Accumulated pages of one search. */
export interface PatientSearchData {
  readonly entries: readonly Patient[];
  readonly remaining: number;
  /** Last page fetched (0-based). */
  readonly page: number;
}

export interface ExaminationParams {
  readonly patientId?: string;
  readonly taken?: boolean;
  readonly examinationType?: TestType;
}

/** The params of a key with one list: an empty object. */
export type NoParams = Readonly<Record<string, never>>;

/** Params and data of each cache key. An empty params object names the one list of that key. */
export interface CacheShapes {
  devices: { params: NoParams; data: readonly Device[] };
  patientSearch: { params: PatientSearchParams; data: PatientSearchData };
  /** A patient's measurements (perimetry/all?patientId). */
  measurements: { params: { patientId: string }; data: readonly Measurement[] };
  /** {} for the list (patient/all); {id} for one patient (patient?id). */
  patients: { params: NoParams | { id: string }; data: readonly Patient[] | Patient };
  trashedMeasurements: { params: NoParams; data: readonly Measurement[] };
  trashedPatients: { params: NoParams; data: readonly Patient[] };
  users: { params: NoParams; data: readonly User[] };
  examinations: { params: ExaminationParams; data: readonly Examination[] };
  /** A patient's Amsler grid examinations. */
  amslerGrid: { params: { patientId: string }; data: readonly Examination[] };
  templates: { params: NoParams; data: readonly Template[] };
  currentOrganisation: { params: NoParams; data: Organisation };
  appointments: { params: NoParams; data: readonly Appointment[] };
  trashedAppointments: { params: NoParams; data: readonly Appointment[] };
}
export type ParamsOf<K extends CacheKey> = CacheShapes[K]["params"];
export type DataOf<K extends CacheKey> = CacheShapes[K]["data"];

/** Patient search page size (our choice; the seeds give none). */
export const PATIENT_SEARCH_PAGE_SIZE = 20;

/** How each key loads. Patient search loads its first page; more pages come through `fetchNextSearchPage`. */
export const fetchers: { [K in CacheKey]: (api: Api, params: ParamsOf<K>) => Promise<DataOf<K>> } = {
  devices: (api) => api.call("device.all", {}),
  patientSearch: async (api, p) => {
    const page = await api.call("patient.search", {
      body: { filter: { name: p.name, birthdate: p.birthdate }, page: 0, quantity: PATIENT_SEARCH_PAGE_SIZE },
    });
    return { entries: page.entries, remaining: page.remaining, page: page.page };
  },
  measurements: (api, p) => api.call("perimetry.all", { query: { patientId: p.patientId } }),
  patients: (api, p) => ("id" in p ? api.call("patient.get", { query: { id: p.id } }) : api.call("patient.all", {})),
  trashedMeasurements: (api) => api.call("perimetry.allTrashed", {}),
  trashedPatients: (api) => api.call("patient.allTrashed", {}),
  users: (api) => api.call("user.all", {}),
  examinations: (api, p) => api.call("examination.all", { query: p }),
  amslerGrid: (api, p) => api.call("examination.all", { query: { patientId: p.patientId, examinationType: "amsler" } }),
  templates: (api) => api.call("template.all", {}),
  currentOrganisation: (api) => api.call("organisation.current", {}),
  appointments: (api) => api.call("appointment.all", {}),
  trashedAppointments: (api) => api.call("appointment.allTrashed", {}),
};
