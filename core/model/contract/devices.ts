import { Schema } from "effect";
import { DeviceStatusSchema } from "../enums.ts";
import { DeviceSchema, StandaloneDataSchema } from "../device.ts";
import { EnrolmentIssuedSchema, EnrolmentSecretKindSchema, HeadsetEnrolmentSchema } from "../enrolment.ts";
import { IdSchema } from "../ids.ts";
import { StandaloneConfigSchema } from "../measurement.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { DeviceSnQuery, IdQuery } from "./shared.ts";

// Device calls: scheduling §7 "Devices" (device/all also in accounts §7).

export const deviceAll = endpoint({
  name: "device.all",
  method: "GET",
  path: "device/all",
  response: Schema.Array(DeviceSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** {alias} (the alias form sends only a non-empty alias) or {status} (the wanted status of a control). */
export const DeviceUpdateBodySchema = Schema.Union([
  Schema.Struct({ alias: Schema.NonEmptyString }),
  Schema.Struct({ status: DeviceStatusSchema }),
]);
export type DeviceUpdateBody = Schema.Schema.Type<typeof DeviceUpdateBodySchema>;

export const deviceUpdate = endpoint({
  name: "device.update",
  method: "PATCH",
  path: "device/update",
  query: IdQuery,
  body: DeviceUpdateBodySchema,
  response: DeviceSchema,
  errors: [...commonErrors, "not_found", "device_not_connected"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer: the device after the change; a status command to a device that is not connected fails device_not_connected",
});

export const deviceStandalone = endpoint({
  name: "device.standalone",
  method: "POST",
  path: "device/standalone",
  query: DeviceSnQuery,
  body: Schema.NullOr(StandaloneConfigSchema),
  response: Schema.NullOr(StandaloneDataSchema),
  successTypes: ["device_standalone_unset"],
  errors: [...commonErrors, "not_found", "device_busy", "device_not_connected", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign:
    "answer: the stand-alone data when switched on; null with responseType device_standalone_unset when switched off. " +
    "device_busy: 'Stand-alone mode cannot change while another measurement runs'; conflict: the headset is lent for a home programme",
});

export const deviceStandaloneData = endpoint({
  name: "device.standaloneData",
  method: "GET",
  path: "device/standalone_data",
  query: IdQuery,
  response: StandaloneDataSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer (not shown): the stand-alone data with its configuration",
});

/** One side of a measurement drop: the lane's device, its new order of perimetry ids and the revision it was read at. */
export const PerimetryLaneSideSchema = Schema.Struct({
  deviceId: IdSchema,
  perimetriesIds: Schema.Array(IdSchema),
  revision: Schema.Finite,
});
export const DragAndDropPerimetryBodySchema = Schema.Struct({
  movedPerimetryId: IdSchema,
  from: PerimetryLaneSideSchema,
  to: PerimetryLaneSideSchema,
});
export type DragAndDropPerimetryBody = Schema.Schema.Type<typeof DragAndDropPerimetryBodySchema>;

/** The new revisions of both lanes. */
export const LaneRevisionsSchema = Schema.Struct({
  from: Schema.Struct({ deviceId: IdSchema, revision: Schema.Finite }),
  to: Schema.Struct({ deviceId: IdSchema, revision: Schema.Finite }),
});
export type LaneRevisions = Schema.Schema.Type<typeof LaneRevisionsSchema>;

export const deviceDragAndDropPerimetry = endpoint({
  name: "device.dragAndDropPerimetry",
  method: "PATCH",
  path: "device/drag_and_drop_perimetry",
  body: DragAndDropPerimetryBodySchema,
  response: LaneRevisionsSchema,
  errors: [...commonErrors, "not_found", "device_revision_conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
});

export const AppointmentLaneSideSchema = Schema.Struct({ deviceId: IdSchema, appointmentsIds: Schema.Array(IdSchema) });
export const DragAndDropAppointmentBodySchema = Schema.Struct({
  movedAppointmentId: IdSchema,
  from: AppointmentLaneSideSchema,
  to: AppointmentLaneSideSchema,
});
export type DragAndDropAppointmentBody = Schema.Schema.Type<typeof DragAndDropAppointmentBodySchema>;

export const deviceDragAndDropAppointment = endpoint({
  name: "device.dragAndDropAppointment",
  method: "PATCH",
  path: "device/drag_and_drop_appointment",
  body: DragAndDropAppointmentBodySchema,
  response: LaneRevisionsSchema,
  errors: [...commonErrors, "not_found", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign: "answer (not shown): the new lane revisions, as for perimetry; conflict when the id lists no longer match the lanes",
});

// Headset enrolment (issue 15, point 1; our design): managers only. Renaming is device/update {alias}.

export const EnrolBodySchema = Schema.Struct({
  /** As printed on the headset (core/device/enrolment.ts SERIAL_PATTERN); enrolled once per server. */
  deviceSn: Schema.String,
  /** The lane's name; the serial when absent. */
  alias: Schema.optionalKey(Schema.String),
  secret: EnrolmentSecretKindSchema,
});
export type EnrolBody = Schema.Schema.Type<typeof EnrolBodySchema>;

export const deviceEnrolments = endpoint({
  name: "device.enrolments",
  method: "GET",
  path: "device/enrolments",
  response: Schema.Array(HeadsetEnrolmentSchema),
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the organisation's headsets with their enrolment state, for managers",
});

export const deviceEnrol = endpoint({
  name: "device.enrol",
  method: "POST",
  path: "device/enrol",
  body: EnrolBodySchema,
  response: EnrolmentIssuedSchema,
  errors: [...commonErrors, "forbidden", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "a new headset of the organisation with its device credential or one-time pairing code, shown once (only a hash is " +
    "kept); conflict when the serial is already enrolled (here: re-enrol it) or registered with another organisation",
});

export const deviceReenrol = endpoint({
  name: "device.reenrol",
  method: "POST",
  path: "device/reenrol",
  query: IdQuery,
  body: Schema.Struct({ secret: EnrolmentSecretKindSchema }),
  response: EnrolmentIssuedSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "a new credential or pairing code for a headset of the organisation; the old one stops working and a live connection closes at once",
});

export const deviceRevoke = endpoint({
  name: "device.revoke",
  method: "PATCH",
  path: "device/revoke",
  query: IdQuery,
  response: HeadsetEnrolmentSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the headset's credential and pairing code stop working; a live connection closes at once (refused: revoked)",
});
