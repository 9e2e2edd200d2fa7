import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  CREDENTIAL_PREFIX,
  normalisePairingCode,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_TTL_MS,
  pairingCodeFrom,
} from "../../../core/device/enrolment.ts";
import type { EnrolmentSecret, EnrolmentSecretKind, EnrolmentState, HeadsetEnrolment } from "../../../core/model/enrolment.ts";
import type { Queryable, Row } from "../db/database.ts";
import { deviceIdentity, deviceTable, type DeviceIdentity } from "./devices.ts";

// The enrolment columns of a device (migration 008): the SHA-256 of its credential, or of a pairing code waiting to be
// exchanged, when they were issued, and whether the headset was revoked. Secrets exist only in the answer that issues
// them; the database holds hashes, which a thief of the database cannot present.

export interface EnrolmentRow extends DeviceIdentity {
  readonly credentialHash: string | null;
  readonly pairingHash: string | null;
  readonly pairingExpiresAt: string | null;
  readonly enrolledAt: string | null;
  readonly revokedAt: string | null;
}

const toRow = (r: Row): EnrolmentRow => ({
  ...deviceIdentity(r),
  credentialHash: (r.credential_hash as string | null) ?? null,
  pairingHash: (r.pairing_hash as string | null) ?? null,
  pairingExpiresAt: (r.pairing_expires_at as string | null) ?? null,
  enrolledAt: (r.enrolled_at as string | null) ?? null,
  revokedAt: (r.revoked_at as string | null) ?? null,
});

export const secretHash = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** Equal hashes, compared in constant time (both are 64 hex characters). */
export const sameHash = (a: string | null, b: string): boolean =>
  a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const stateOf = (r: EnrolmentRow): EnrolmentState =>
  r.revokedAt !== null ? "revoked" : r.credentialHash !== null ? "enrolled" : r.pairingHash !== null ? "pairing" : "not-enrolled";

export const enrolmentView = (r: EnrolmentRow): HeadsetEnrolment => ({
  id: r.id,
  deviceSn: r.deviceSn,
  alias: r.alias,
  state: stateOf(r),
  enrolledAt: r.enrolledAt,
  revokedAt: r.revokedAt,
  pairingExpiresAt: stateOf(r) === "pairing" ? r.pairingExpiresAt : null,
  connection: r.connection,
  lastSeen: r.lastSeen,
});

export const enrolmentRows = async (q: Queryable, org: string): Promise<EnrolmentRow[]> => (await deviceTable.all(q, org)).map(toRow);

export const enrolmentById = async (q: Queryable, org: string, id: string): Promise<EnrolmentRow | undefined> => {
  const row = await deviceTable.byId(q, org, id);
  return row && toRow(row);
};

/** Any organisation's device by serial: a headset names itself in its hello. */
export const enrolmentBySn = async (q: Queryable, sn: string): Promise<EnrolmentRow | undefined> => {
  const row = await deviceTable.bySnAnywhere(q, sn);
  return row && toRow(row);
};

const newCredential = () => CREDENTIAL_PREFIX + randomBytes(32).toString("base64url");

/**
 * A new secret for the device: its credential, or a pairing code (and no credential until the code is exchanged). Any
 * older credential or code stops working and a revocation ends; the caller closes a live connection after the commit.
 */
export const issueSecret = async (q: Queryable, deviceId: string, kind: EnrolmentSecretKind, now: number): Promise<EnrolmentSecret> => {
  const at = new Date(now).toISOString();
  if (kind === "credential") {
    const value = newCredential();
    await q.query(
      "update devices set credential_hash = $2, pairing_hash = null, pairing_expires_at = null, enrolled_at = $3, revoked_at = null where id = $1",
      [deviceId, secretHash(value), at],
    );
    return { kind, value, expiresAt: null };
  }
  const value = pairingCodeFrom(randomBytes(PAIRING_CODE_LENGTH));
  const expiresAt = new Date(now + PAIRING_CODE_TTL_MS).toISOString();
  await q.query(
    "update devices set credential_hash = null, pairing_hash = $2, pairing_expires_at = $3, enrolled_at = $4, revoked_at = null where id = $1",
    [deviceId, secretHash(normalisePairingCode(value)), expiresAt, at],
  );
  return { kind, value, expiresAt };
};

/** The headset's credential and pairing code stop working. */
export const revoke = async (q: Queryable, deviceId: string, now: number): Promise<void> => {
  await q.query(
    "update devices set credential_hash = null, pairing_hash = null, pairing_expires_at = null, revoked_at = coalesce(revoked_at, $2) where id = $1",
    [deviceId, new Date(now).toISOString()],
  );
};

/**
 * Exchanges a pairing code for a new credential, once: the update matches only the serial's unexpired, unrevoked code,
 * so of two hellos with the same code exactly one gets a credential. Answers the credential, or null.
 */
export const exchangePairingCode = async (q: Queryable, sn: string, typed: string, now: number): Promise<string | null> => {
  const credential = newCredential();
  const rows = await q.query(
    `update devices set credential_hash = $3, pairing_hash = null, pairing_expires_at = null
      where device_sn = $1 and pairing_hash = $2 and pairing_expires_at > $4 and revoked_at is null returning id`,
    [sn, secretHash(normalisePairingCode(typed)), secretHash(credential), new Date(now).toISOString()],
  );
  return rows.length === 1 ? credential : null;
};

/** A new device row for an enrolled serial; false when the serial exists already (any organisation). */
export const insertEnrolledDevice = async (
  q: Queryable,
  org: string,
  id: string,
  sn: string,
  alias: string,
  now: number,
): Promise<boolean> =>
  (
    await q.query(
      "insert into devices (id, organisation_id, device_sn, alias, created_at) values ($1, $2, $3, $4, $5) on conflict (device_sn) do nothing returning id",
      [id, org, sn, alias, new Date(now).toISOString()],
    )
  ).length === 1;
