import { Schema } from "effect";
import { ExaminationSchema } from "./examination.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Appointment: examinations bundled for one patient on one device (scheduling §3, accounts §3).
// audioGuide, tutorial, trackGaze and standaloneId are what appointment/register_with_examinations sends.
export const AppointmentSchema = Schema.Struct({
  id: IdSchema,
  patientId: IdSchema,
  deviceSn: Schema.NullOr(DeviceSnSchema),
  /** In run order: the first untaken examination runs next. */
  examinations: Schema.Array(ExaminationSchema),
  audioGuide: Schema.Boolean,
  tutorial: Schema.Boolean,
  trackGaze: Schema.Boolean,
  standaloneId: Schema.NullOr(IdSchema),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  trashedAt: Schema.NullOr(IsoDateTimeSchema),
});
export type Appointment = Schema.Schema.Type<typeof AppointmentSchema>;
