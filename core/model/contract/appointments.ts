import { Schema } from "effect";
import { AppointmentSchema } from "../appointment.ts";
import { ExaminationPayloadSchema, ExaminationSchema } from "../examination.ts";
import { DeviceSnSchema, IdSchema } from "../ids.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { AppointmentIdQuery, Deleted, ExaminationListQuery, IdQuery } from "./shared.ts";

// Appointment and examination calls: scheduling §7 "Appointments and examinations" (listed again in accounts §7).

const listAnswer = Schema.Array(AppointmentSchema);

export const appointmentAll = endpoint({
  name: "appointment.all",
  method: "GET",
  path: "appointment/all",
  response: listAnswer,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

export const appointmentAllTrashed = endpoint({
  name: "appointment.allTrashed",
  method: "GET",
  path: "appointment/all_trashed",
  response: listAnswer,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** The appointment-level settings (register without examinations; our reading of 'appointmentBody'). */
export const AppointmentBodySchema = Schema.Struct({
  audioGuide: Schema.Boolean,
  tutorial: Schema.Boolean,
  trackGaze: Schema.Boolean,
  deviceSn: DeviceSnSchema,
  patientId: IdSchema,
  standaloneId: Schema.NullOr(IdSchema),
});
export type AppointmentBody = Schema.Schema.Type<typeof AppointmentBodySchema>;

export const AppointmentRegisterBodySchema = Schema.Struct({
  ...AppointmentBodySchema.fields,
  examinations: Schema.Array(ExaminationPayloadSchema),
});
export type AppointmentRegisterBody = Schema.Schema.Type<typeof AppointmentRegisterBodySchema>;

export const appointmentRegisterWithExaminations = endpoint({
  name: "appointment.registerWithExaminations",
  method: "POST",
  path: "appointment/register_with_examinations",
  body: AppointmentRegisterBodySchema,
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer (not shown): the created appointment with its examinations",
});

export const appointmentUpdate = endpoint({
  name: "appointment.update",
  method: "PATCH",
  path: "appointment/update",
  query: IdQuery,
  body: AppointmentBodySchema,
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "appointmentBody is not shown: the register body without examinations; answer the appointment",
});

export const appointmentTrash = endpoint({
  name: "appointment.trash",
  method: "DELETE",
  path: "appointment/trash",
  query: IdQuery,
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the trashed appointment",
});

export const appointmentDelete = endpoint({
  name: "appointment.delete",
  method: "DELETE",
  path: "appointment/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "permanent; answer {id}",
});

export const appointmentRestore = endpoint({
  name: "appointment.restore",
  method: "PATCH",
  path: "appointment/restore",
  query: IdQuery,
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the restored appointment",
});

export const appointmentInsertExaminations = endpoint({
  name: "appointment.insertExaminations",
  method: "PATCH",
  path: "appointment/examination/insert",
  query: AppointmentIdQuery,
  body: Schema.Struct({ examinations: Schema.Array(ExaminationPayloadSchema) }),
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "examinations are appended in order; answer the appointment",
});

export const appointmentReorderExaminations = endpoint({
  name: "appointment.reorderExaminations",
  method: "PATCH",
  path: "appointment/examination/reorder",
  query: IdQuery,
  body: Schema.Struct({ newExaminationsIds: Schema.Array(IdSchema) }),
  response: AppointmentSchema,
  errors: [...commonErrors, "not_found", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer: the reordered appointment; conflict when the ids are not exactly the appointment's examinations",
});

export const examinationAll = endpoint({
  name: "examination.all",
  method: "GET",
  path: "examination/all",
  query: ExaminationListQuery,
  response: Schema.Array(ExaminationSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** "id and examination body (full body or notes)". */
export const ExaminationUpdateBodySchema = Schema.Union([
  Schema.Struct({ id: IdSchema, ...ExaminationPayloadSchema.fields }),
  Schema.Struct({ id: IdSchema, notes: Schema.String }),
]);
export type ExaminationUpdateBody = Schema.Schema.Type<typeof ExaminationUpdateBodySchema>;

export const examinationUpdate = endpoint({
  name: "examination.update",
  method: "PATCH",
  path: "examination/update",
  query: IdQuery,
  body: ExaminationUpdateBodySchema,
  response: ExaminationSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer: the updated examination",
});

export const examinationDelete = endpoint({
  name: "examination.delete",
  method: "DELETE",
  path: "examination/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "permanent; answer {id}",
});

export const examinationTrash = endpoint({
  name: "examination.trash",
  method: "DELETE",
  path: "examination/trash",
  query: IdQuery,
  response: ExaminationSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer: the trashed examination",
});

/** Examination payload, optionally into an existing appointment (our design). */
export const ExaminationRegisterBodySchema = Schema.Struct({
  ...ExaminationPayloadSchema.fields,
  appointmentId: Schema.optionalKey(Schema.NullOr(IdSchema)),
});

export const examinationRegister = endpoint({
  name: "examination.register",
  method: "POST",
  path: "examination/register",
  body: ExaminationRegisterBodySchema,
  response: ExaminationSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer: the created examination; appointmentId (optional) adds it to that appointment",
});
