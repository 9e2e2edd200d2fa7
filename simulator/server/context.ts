import type { Database } from "./db/database.ts";
import type { AttemptLimits } from "./auth/limits.ts";
import type { AuditTrail } from "./audit/trail.ts";
import type { SessionEnd, SessionStore } from "./auth/sessions.ts";
import type { TokenClaims, TokenSigner } from "./auth/token.ts";
import type { LiveHub } from "./live/hub.ts";
import type { DeviceHub } from "./device/hub.ts";
import type { PresenceBook } from "./device/presence.ts";
import type { Bus } from "./bus/bus.ts";
import type { PatientIndex } from "./store/patient-index.ts";
import type { SecretKeys } from "./auth/secret-box.ts";

// What every handler and socket may use. Time comes from `now` so tests can move it (token expiry, rate windows).

export interface ServerSettings {
  /** Access-token lifetime; every authenticated answer carries a fresh one (sliding session). */
  readonly accessTokenTtlSeconds: number;
  readonly resetTokenTtlSeconds: number;
  readonly invitationTtlSeconds: number;
  /** Failed logins per account per window before 429 (also failed old passwords in password_change, per user). */
  readonly loginFailuresAllowed: number;
  /** Failed logins per address per window before 429, except for accounts that logged in from there before. */
  readonly loginAddressFailuresAllowed: number;
  readonly loginWindowMs: number;
  /** Password-reset requests per address and per e-mail address per window. */
  readonly resetRequestsAllowed: number;
  readonly resetWindowMs: number;
  /** How long PATCH device/update {status} waits for the headset's ack. */
  readonly commandTimeoutMs: number;
  /** A connected headset silent this long is marked disconnected ("No heartbeat for 4 s marks it disconnected"). */
  readonly deviceSilenceMs: number;
  /** Base of links in e-mails (reset, invitation). */
  readonly publicUrl: string;
  /** Reverse proxies whose X-Forwarded-For names the caller (ISOPTER_TRUSTED_PROXIES; http/client-address.ts). */
  readonly trustedProxies: ReadonlyArray<string>;
}

/** ended: why the token's session no longer holds (another session opened, logout, ...), when that is the reason. */
export type AuthCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: "token_expired" | "token_verification_error"; ended?: SessionEnd | "unknown" };

export interface ServerContext {
  readonly db: Database;
  /** The other server processes on the same database (bus/bus.ts); on PGlite this process alone. */
  readonly bus: Bus;
  readonly signer: TokenSigner;
  readonly live: LiveHub;
  readonly devices: DeviceHub;
  /** Headsets' battery and last-seen as heard, ahead of the database (written every few seconds). */
  readonly presence: PresenceBook;
  /** The organisations' active patients in name order, for the patient search (store/patient-index.ts). */
  readonly patientIndex: PatientIndex;
  readonly limits: AttemptLimits;
  readonly audit: AuditTrail;
  readonly sessions: SessionStore;
  /** Seal second-factor secrets and hash recovery codes (auth/secret-box.ts): a key the database does not hold. */
  readonly secretKeys: SecretKeys;
  readonly settings: ServerSettings;
  /** The package version (GET version). */
  readonly version: string;
  now(): number;
  /** Verifies an access token and its session (ended sessions, deleted users and changed roles take effect at once). */
  authenticate(token: string): Promise<AuthCheck>;
  /** Drops what is held about a user whose row or sessions changed in this process. */
  forgetUser(userId: string): void;
  /** A fresh access token for the same session. */
  issueAccessToken(claims: Omit<TokenClaims, "exp" | "kind">): string;
}
