import { Schema } from "effect";
import { ConnectionStatusSchema, LiveEventType, LiveOperation } from "./enums.ts";
import { AppointmentSchema } from "./appointment.ts";
import { DeviceBatterySchema, DeviceSchema } from "./device.ts";
import { ExaminationSchema } from "./examination.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { MeasurementSchema } from "./measurement.ts";
import { PatientSchema } from "./patient.ts";
import { RunningTestSchema } from "./running-test.ts";
import { DeviceStatusFromWireSchema } from "./wire.ts";
import { decode, type DecodeError } from "./decode.ts";
import type { LiveEvent } from "./live.ts";
import type { Result } from "effect";

// The `data` of each live event, by type and operation. The seeds give the types and operations and what the client
// does with them (scheduling §4 "Live events"); the data shapes are our design:
//  - insert / restore / update carry the whole entity; trash / delete carry {id};
//  - device update carries the changed fields with deviceSn (a status event sets the status);
//  - connection carries {deviceSn, connection} (a heartbeat is a CONNECTED connection event);
//  - measurement/examination progress carry the running test with deviceSn;
//  - measurement result ready carries the measurement with its result; device transfer in/out carries {deviceSn};
//  - drag_and_drop carries the new lane revisions; reorder carries the reordered appointment;
//  - device clicker_disconnected (ours) carries {deviceSn, perimetryId, appointmentId, examinationId}: the test the
//    headset stopped because its clicker dropped out (the status stopped follows as a device update).

export const RemovedDataSchema = Schema.Struct({ id: IdSchema });

export const DeviceChangeDataSchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  status: Schema.optionalKey(DeviceStatusFromWireSchema),
  alias: Schema.optionalKey(Schema.String),
  battery: Schema.optionalKey(DeviceBatterySchema),
  connection: Schema.optionalKey(ConnectionStatusSchema),
  lastSeen: Schema.optionalKey(Schema.NullOr(IsoDateTimeSchema)),
  standaloneId: Schema.optionalKey(Schema.NullOr(IdSchema)),
  revision: Schema.optionalKey(Schema.Finite),
});
export type DeviceChangeData = Schema.Schema.Type<typeof DeviceChangeDataSchema>;

export const ConnectionDataSchema = Schema.Struct({ deviceSn: DeviceSnSchema, connection: ConnectionStatusSchema });
export type ConnectionData = Schema.Schema.Type<typeof ConnectionDataSchema>;

export const ProgressDataSchema = Schema.Struct({ deviceSn: DeviceSnSchema, ...RunningTestSchema.fields });
export type ProgressData = Schema.Schema.Type<typeof ProgressDataSchema>;

export const DeviceTransferDataSchema = Schema.Struct({ deviceSn: DeviceSnSchema });

/** Scheduling §8 "Clicker disconnected | test stopped message": which headset stopped which test. perimetryId is the
 * measurement's id (a stand-alone run's standaloneId); an appointment's examination has appointmentId and
 * examinationId instead; all null when no test was under way. */
export const ClickerDisconnectedDataSchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  perimetryId: Schema.NullOr(IdSchema),
  appointmentId: Schema.NullOr(IdSchema),
  examinationId: Schema.NullOr(IdSchema),
});
export type ClickerDisconnectedData = Schema.Schema.Type<typeof ClickerDisconnectedDataSchema>;

export const LaneMoveDataSchema = Schema.Struct({
  from: Schema.Struct({ deviceId: IdSchema, revision: Schema.Finite }),
  to: Schema.Struct({ deviceId: IdSchema, revision: Schema.Finite }),
});

const entityOf = {
  [LiveEventType.Device]: DeviceSchema,
  [LiveEventType.Patient]: PatientSchema,
  [LiveEventType.Measurement]: MeasurementSchema,
  [LiveEventType.Examination]: ExaminationSchema,
  [LiveEventType.Appointment]: AppointmentSchema,
} as const;

/** The schema of an event's data, or undefined for a combination we never send. */
export const liveEventDataSchema = (type: LiveEvent["type"], operation: LiveEvent["operation"]): Schema.Codec<unknown, unknown, never, never> | undefined => {
  switch (operation) {
    case LiveOperation.MeasurementProgress:
    case LiveOperation.ExaminationProgress:
      return ProgressDataSchema as never;
    case LiveOperation.MeasurementResultReady:
      return (type === LiveEventType.Examination ? ExaminationSchema : MeasurementSchema) as never;
    case LiveOperation.DeviceTransferIn:
    case LiveOperation.DeviceTransferOut:
      return DeviceTransferDataSchema as never;
    case LiveOperation.ClickerDisconnected:
      return ClickerDisconnectedDataSchema as never;
    case LiveOperation.Trash:
    case LiveOperation.Delete:
      return RemovedDataSchema as never;
  }
  if (type === LiveEventType.Connection) return ConnectionDataSchema as never;
  if (type === LiveEventType.DragAndDrop) return LaneMoveDataSchema as never;
  if (type === LiveEventType.Reorder) return AppointmentSchema as never;
  if (type === LiveEventType.Device && operation === LiveOperation.Update) return DeviceChangeDataSchema as never;
  return entityOf[type] as never;
};

/** Decode an event's data by its type and operation; the error names the field inside data ("status"). */
export const decodeLiveEventData = (event: LiveEvent): Result.Result<unknown, DecodeError> | undefined => {
  const schema = liveEventDataSchema(event.type, event.operation);
  return schema === undefined ? undefined : decode(schema, event.data);
};
