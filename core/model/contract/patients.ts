import { Schema } from "effect";
import { IsoDateSchema } from "../ids.ts";
import { PatientFieldsSchema, PatientSchema } from "../patient.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Deleted, IdQuery } from "./shared.ts";

// Patient calls: scheduling §7 "Patients" and accounts §7 (the same rows).

const lifecycleNote = "answer: the patient after the change (the seeds show none)";

export const patientGet = endpoint({
  name: "patient.get",
  method: "GET",
  path: "patient",
  query: IdQuery,
  response: PatientSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

export const patientAll = endpoint({
  name: "patient.all",
  method: "GET",
  path: "patient/all",
  response: Schema.Array(PatientSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** Birthdate filter is null unless day, month and year are all chosen (accounts §5). */
export const PatientSearchBodySchema = Schema.Struct({
  filter: Schema.Struct({ name: Schema.String, birthdate: Schema.NullOr(IsoDateSchema) }),
  /** 0-based page number (our design). */
  page: Schema.Int,
  /** Page size. */
  quantity: Schema.Int,
});
export type PatientSearchBody = Schema.Schema.Type<typeof PatientSearchBodySchema>;

export const PatientSearchPageSchema = Schema.Struct({
  entries: Schema.Array(PatientSchema),
  /** How many matches follow this page, counted up to 100 (more follow when it says 100); paging continues while remaining > 0. */
  remaining: Schema.Int,
  page: Schema.Int,
});
export type PatientSearchPage = Schema.Schema.Type<typeof PatientSearchPageSchema>;

export const patientSearch = endpoint({
  name: "patient.search",
  method: "POST",
  path: "patient/search",
  body: PatientSearchBodySchema,
  response: PatientSearchPageSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "name matches name or uniqueId, case-insensitive; page is 0-based",
});

export const patientRegister = endpoint({
  name: "patient.register",
  method: "POST",
  path: "patient/register",
  body: PatientFieldsSchema,
  response: PatientSchema,
  errors: [...commonErrors, "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the created patient (has the required data.id); conflict when the uniqueId is taken",
});

export const patientUpdate = endpoint({
  name: "patient.update",
  method: "PATCH",
  path: "patient",
  query: IdQuery,
  body: PatientFieldsSchema,
  response: PatientSchema,
  errors: [...commonErrors, "not_found", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: lifecycleNote,
});

export const patientRestore = endpoint({
  name: "patient.restore",
  method: "PATCH",
  path: "patient/restore",
  query: IdQuery,
  response: PatientSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: lifecycleNote,
});

export const patientTrash = endpoint({
  name: "patient.trash",
  method: "DELETE",
  path: "patient/trash",
  query: IdQuery,
  response: PatientSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: lifecycleNote,
});

export const patientDelete = endpoint({
  name: "patient.delete",
  method: "DELETE",
  path: "patient/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "permanent; answer {id}",
});

export const patientAllTrashed = endpoint({
  name: "patient.allTrashed",
  method: "GET",
  path: "patient/all_trashed",
  response: Schema.Array(PatientSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});
