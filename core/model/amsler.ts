import { Schema } from "effect";
import { AmslerAnswerSchema } from "./enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Amsler grid result (scheduling §3, accounts §3). The eye is the examination's.
export const AmslerResultSchema = Schema.Struct({
  answer: AmslerAnswerSchema,
  takenAt: IsoDateTimeSchema,
  deviceSn: DeviceSnSchema,
  appointmentId: Schema.NullOr(IdSchema),
});
export type AmslerResult = Schema.Schema.Type<typeof AmslerResultSchema>;
