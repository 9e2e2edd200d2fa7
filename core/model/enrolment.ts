import { Schema } from "effect";
import { ConnectionStatusSchema } from "./enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// A headset's enrolment as managers see it in the Headsets section and `isopter devices enrol|revoke` (issue 15,
// point 1; our design, the seeds predate enrolment). The device itself (device/all) is unchanged.

/** enrolled: holds a credential; pairing: a pairing code waits to be exchanged; revoked: refused until enrolled again;
 * not-enrolled: registered before enrolment existed, refused until enrolled. */
export const EnrolmentStateSchema = Schema.Literals(["enrolled", "pairing", "revoked", "not-enrolled"]);
export type EnrolmentState = typeof EnrolmentStateSchema.Type;

export const HeadsetEnrolmentSchema = Schema.Struct({
  id: IdSchema,
  deviceSn: DeviceSnSchema,
  alias: Schema.String,
  state: EnrolmentStateSchema,
  /** When the current credential or pairing code was issued. */
  enrolledAt: Schema.NullOr(IsoDateTimeSchema),
  revokedAt: Schema.NullOr(IsoDateTimeSchema),
  /** While a pairing code waits: when it stops working. */
  pairingExpiresAt: Schema.NullOr(IsoDateTimeSchema),
  connection: ConnectionStatusSchema,
  lastSeen: Schema.NullOr(IsoDateTimeSchema),
});
export type HeadsetEnrolment = typeof HeadsetEnrolmentSchema.Type;

/** What the manager asks for: the credential itself (typed into the headset) or a one-time pairing code. */
export const EnrolmentSecretKindSchema = Schema.Literals(["credential", "pairingCode"]);
export type EnrolmentSecretKind = typeof EnrolmentSecretKindSchema.Type;

/** The secret, shown once: the server keeps only its hash. */
export const EnrolmentSecretSchema = Schema.Struct({
  kind: EnrolmentSecretKindSchema,
  value: Schema.String,
  /** A pairing code's end of validity; null for a credential. */
  expiresAt: Schema.NullOr(IsoDateTimeSchema),
});
export type EnrolmentSecret = typeof EnrolmentSecretSchema.Type;

export const EnrolmentIssuedSchema = Schema.Struct({ headset: HeadsetEnrolmentSchema, secret: EnrolmentSecretSchema });
export type EnrolmentIssued = typeof EnrolmentIssuedSchema.Type;
