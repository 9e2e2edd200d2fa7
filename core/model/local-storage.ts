import { Schema } from "effect";
import { MeasurementConfigSchema } from "./measurement-config.ts";
import { DeviceSnSchema, IdSchema } from "./ids.ts";

// The JSON values kept under core/ports StorageKeys.local (ClientSettings is in ./client-settings.ts).

/** pinnedSwimlanes: serial numbers of the pinned devices (pinned lanes come first). */
export const PinnedSwimlanesSchema = Schema.Array(DeviceSnSchema);
export type PinnedSwimlanes = Schema.Schema.Type<typeof PinnedSwimlanesSchema>;

/** unreliableResultIds: measurement ids marked unreliable (excluded from the progression chart). */
export const UnreliableResultIdsSchema = Schema.Array(IdSchema);
export type UnreliableResultIds = Schema.Schema.Type<typeof UnreliableResultIdsSchema>;

/** baselineResultIds: "stored as a pair (left id, right id)"; null where that eye has no baseline. */
export const BaselineResultIdsSchema = Schema.Tuple([Schema.NullOr(IdSchema), Schema.NullOr(IdSchema)]);
export type BaselineResultIds = Schema.Schema.Type<typeof BaselineResultIdsSchema>;

/** patientTestConfigurations: the last measurement configuration used per patient id (form prefill). */
export const PatientTestConfigurationsSchema = Schema.Record(IdSchema, MeasurementConfigSchema);
export type PatientTestConfigurations = Schema.Schema.Type<typeof PatientTestConfigurationsSchema>;

/** schedulingV2: the appointment-variant flag ("a v2 scheduling key"). */
export const SchedulingV2Schema = Schema.Boolean;
