import type { Database } from "./db/database.ts";
import type { RateLimit } from "./auth/rate-limit.ts";
import type { TokenClaims, TokenSigner } from "./auth/token.ts";
import type { LiveHub } from "./live/hub.ts";
import type { DeviceHub } from "./device/hub.ts";
import type { PresenceBook } from "./device/presence.ts";

// What every handler and socket may use. Time comes from `now` so tests can move it (token expiry, rate windows).

export interface ServerSettings {
  /** Access-token lifetime; every authenticated answer carries a fresh one (sliding session). */
  readonly accessTokenTtlSeconds: number;
  readonly resetTokenTtlSeconds: number;
  readonly invitationTtlSeconds: number;
  /** Failed logins per client per window before 429. */
  readonly loginFailuresAllowed: number;
  readonly loginWindowMs: number;
  /** How long PATCH device/update {status} waits for the headset's ack. */
  readonly commandTimeoutMs: number;
  /** A connected headset silent this long is marked disconnected ("No heartbeat for 4 s marks it disconnected"). */
  readonly deviceSilenceMs: number;
  /** Base of links in e-mails (reset, invitation). */
  readonly publicUrl: string;
}

/** superseded: the user has logged in again since (another session opened); HTTP calls still work, live sockets end. */
export type AuthCheck =
  | { ok: true; claims: TokenClaims; superseded: boolean }
  | { ok: false; reason: "token_expired" | "token_verification_error" };

export interface ServerContext {
  readonly db: Database;
  readonly signer: TokenSigner;
  readonly live: LiveHub;
  readonly devices: DeviceHub;
  /** Headsets' battery and last-seen as heard, ahead of the database (written every few seconds). */
  readonly presence: PresenceBook;
  readonly loginLimit: RateLimit;
  readonly settings: ServerSettings;
  /** The package version (GET version). */
  readonly version: string;
  now(): number;
  /** Verifies an access token and re-reads the user (deleted users and changed roles take effect at once). */
  authenticate(token: string): Promise<AuthCheck>;
  /** Drops the cached account of a user whose row changed (role, session, state, deletion). */
  forgetUser(userId: string): void;
  /** A fresh access token for the same session. */
  issueAccessToken(claims: Omit<TokenClaims, "exp" | "kind">): string;
}
