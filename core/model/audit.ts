import { Schema } from "effect";
import { IsoDateSchema, IsoDateTimeSchema } from "./ids.ts";

// The audit trail (issue 15 §6; our design, the seeds have none): who (a user, a headset, or an unknown caller), when,
// from which address, which action (the contract call's name, or a device or session event) on which patient or
// record, and how it ended (success, or the error type).

export const AuditActorKindSchema = Schema.Literals(["user", "headset", "anonymous"]);
export type AuditActorKind = typeof AuditActorKindSchema.Type;

export const AuditEntrySchema = Schema.Struct({
  id: Schema.Number,
  at: IsoDateTimeSchema,
  actorKind: AuditActorKindSchema,
  /** The user's id or the headset's serial; null for an unknown caller. */
  actorId: Schema.NullOr(Schema.String),
  /** The username (or the name tried at a failed login), or the headset's serial. */
  actorName: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  action: Schema.String,
  /** "success", or the error type the call answered (invalid_credentials, not_found, ...). */
  outcome: Schema.String,
  patientId: Schema.NullOr(Schema.String),
  recordType: Schema.NullOr(Schema.String),
  recordId: Schema.NullOr(Schema.String),
  /** What the trail did to store the event (issue 33 §6): values cut to a stated length, or a reduced form and why. */
  note: Schema.NullOr(Schema.String),
});
export type AuditEntry = typeof AuditEntrySchema.Type;

export const AuditFilterSchema = Schema.Struct({
  /** UTC days, inclusive. */
  from: Schema.NullOr(IsoDateSchema),
  to: Schema.NullOr(IsoDateSchema),
  userId: Schema.NullOr(Schema.String),
  patientId: Schema.NullOr(Schema.String),
  action: Schema.NullOr(Schema.String),
});
export type AuditFilter = typeof AuditFilterSchema.Type;

export const AUDIT_PAGE_MAX = 500;
