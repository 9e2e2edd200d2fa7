import { Schema } from "effect";
import { ConnectionStatusSchema } from "./enums.ts";
import { AppointmentSchema } from "./appointment.ts";
import { MeasurementSchema, StandaloneConfigSchema } from "./measurement.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { DeviceStatusFromWireSchema } from "./wire.ts";

// Device (VR headset) as the dashboard lists it (scheduling §3).

/** One battery: level in % (null when unknown, e.g. clicker not paired) and whether it is charging. */
export const BatterySchema = Schema.Struct({
  level: Schema.NullOr(Schema.Finite),
  charging: Schema.Boolean,
});
export type Battery = Schema.Schema.Type<typeof BatterySchema>;

export const DeviceBatterySchema = Schema.Struct({ vr: BatterySchema, clicker: BatterySchema });
export type DeviceBattery = Schema.Schema.Type<typeof DeviceBatterySchema>;

export const DeviceSchema = Schema.Struct({
  id: IdSchema,
  deviceSn: DeviceSnSchema,
  alias: Schema.String,
  /** Unknown status strings decode to notconnected. */
  status: DeviceStatusFromWireSchema,
  lastSeen: Schema.NullOr(IsoDateTimeSchema),
  /** Set while stand-alone mode is on: the id of its StandaloneData. */
  standaloneId: Schema.NullOr(IdSchema),
  /** Bumped on every change of the queue; drag-and-drop sends it back and a stale one gets 409. */
  revision: Schema.Finite,
  battery: DeviceBatterySchema,
  connection: ConnectionStatusSchema,
  /** Queued measurements in lane order (leftmost runs next). */
  perimetries: Schema.Array(MeasurementSchema),
  /** Queued appointments (appointment variant). Optional: a device without it shows 'Appointments field missing'. */
  appointments: Schema.optionalKey(Schema.Array(AppointmentSchema)),
});
export type Device = Schema.Schema.Type<typeof DeviceSchema>;

/** Stand-alone data fetched by standaloneId (device/standalone_data): the measurement the device repeats. */
export const StandaloneDataSchema = Schema.Struct({
  id: IdSchema,
  deviceSn: DeviceSnSchema,
  config: StandaloneConfigSchema,
  createdAt: IsoDateTimeSchema,
});
export type StandaloneData = Schema.Schema.Type<typeof StandaloneDataSchema>;
