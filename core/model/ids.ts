import { Schema } from "effect";

// Ids are strings everywhere (UUID-like, opaque): the same value travels in JSON bodies, in query strings
// (patient?id={id}) and in routes (/patient/{patientId}), so no number<->string conversion is ever needed.
export const IdSchema = Schema.String;
export type Id = Schema.Schema.Type<typeof IdSchema>;

/** Device serial number: the device's stable key in lanes, live events and routes (?scrollTo={deviceSn}/{id}). */
export const DeviceSnSchema = Schema.String;
export type DeviceSn = Schema.Schema.Type<typeof DeviceSnSchema>;

/** Calendar date as ISO "YYYY-MM-DD" (birthdates). */
export const IsoDateSchema = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/));
export type IsoDate = Schema.Schema.Type<typeof IsoDateSchema>;

/** Instant as an ISO-8601 string (takenAt, createdAt, updatedAt, lastSeen). */
export const IsoDateTimeSchema = Schema.String;
export type IsoDateTime = Schema.Schema.Type<typeof IsoDateTimeSchema>;
