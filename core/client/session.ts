import type { AccessTokenPayload } from "../model/access-token.ts";

// Session states (accounts seed §4 "Login", "Session").

export type SessionStatus = "logged-out" | "submitting" | "logged-in";

/** Why a session ended without the user asking: each shows its dialog and redirects to /login. */
export type SessionEndDialog = "session-expired" | "another-session-opened";

export interface SessionState {
  readonly status: SessionStatus;
  /** "Login failed." after a failed login; cleared when a field is edited (`clearLoginError`). */
  readonly loginError: string | null;
  /** What the token check answered (role, username, email, expiry). */
  readonly claims: AccessTokenPayload | null;
  readonly dialog: SessionEndDialog | null;
}

export const LOGIN_FAILED = "Login failed.";

export const loggedOut: SessionState = { status: "logged-out", loginError: null, claims: null, dialog: null };
