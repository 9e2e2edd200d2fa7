import { Schema } from "effect";
import { ConnectionStatusSchema, type LiveEventType, type LiveOperation } from "./enums.ts";
import { AppointmentSchema } from "./appointment.ts";
import { DeviceBatterySchema, DeviceSchema } from "./device.ts";
import { ExaminationSchema } from "./examination.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { MeasurementSchema } from "./measurement.ts";
import { PatientSchema } from "./patient.ts";
import { RunningTestSchema, StoppedTestSchema } from "./running-test.ts";
import { DeviceStatusFromWireSchema } from "./wire.ts";

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
// `liveEventData` lists every (type, operation) the server sends; core/model/live.ts makes one event schema of each.

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

/** Scheduling §8 "Clicker disconnected | test stopped message": which headset stopped which test (StoppedTest). */
export const ClickerDisconnectedDataSchema = Schema.Struct({ deviceSn: DeviceSnSchema, ...StoppedTestSchema.fields });
export type ClickerDisconnectedData = Schema.Schema.Type<typeof ClickerDisconnectedDataSchema>;

const LaneRevisionSchema = Schema.Struct({ deviceId: IdSchema, revision: Schema.Finite });
export const LaneMoveDataSchema = Schema.Struct({ from: LaneRevisionSchema, to: LaneRevisionSchema });
export type LaneMoveData = Schema.Schema.Type<typeof LaneMoveDataSchema>;

/** insert, restore, update, trash and delete of one entity. */
const lifecycle = <S extends Schema.Top>(entity: S) =>
  ({ insert: entity, restore: entity, update: entity, trash: RemovedDataSchema, delete: RemovedDataSchema }) as const;
const transfers = { device_transfer_in: DeviceTransferDataSchema, device_transfer_out: DeviceTransferDataSchema } as const;

/** Every live event the server sends: type -> operation -> the schema of its data. */
export const liveEventData = {
  device: { ...lifecycle(DeviceSchema), ...transfers, update: DeviceChangeDataSchema, clicker_disconnected: ClickerDisconnectedDataSchema },
  patient: lifecycle(PatientSchema),
  measurement: {
    ...lifecycle(MeasurementSchema),
    ...transfers,
    measurement_result_ready: MeasurementSchema,
    measurement_progress: ProgressDataSchema,
  },
  examination: {
    ...lifecycle(ExaminationSchema),
    ...transfers,
    measurement_result_ready: ExaminationSchema,
    examination_progress: ProgressDataSchema,
  },
  appointment: { ...lifecycle(AppointmentSchema), ...transfers },
  drag_and_drop: { update: LaneMoveDataSchema },
  reorder: { update: AppointmentSchema },
  connection: { update: ConnectionDataSchema },
} as const satisfies {
  readonly [T in LiveEventType]: { readonly [O in LiveOperation]?: Schema.Top & { readonly DecodingServices: never } };
};
export type LiveEventData = typeof liveEventData;
