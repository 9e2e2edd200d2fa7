import type { AccessTokenPayload } from "../model/access-token.ts";

// Session states (accounts seed §4 "Login", "Session").

export type SessionStatus = "logged-out" | "submitting" | "logged-in";

/** Why a session ended without the user asking: each shows its dialog and redirects to /login. */
export type SessionEndDialog = "session-expired" | "another-session-opened";

export interface SessionState {
  readonly status: SessionStatus;
  /** "Login failed." (or LOGIN_SERVER_ERROR) after a failed login; cleared when a field is edited (`clearLoginError`). */
  readonly loginError: string | null;
  /** What the token check answered (role, username, email, expiry). */
  readonly claims: AccessTokenPayload | null;
  readonly dialog: SessionEndDialog | null;
}

export const LOGIN_FAILED = "Login failed.";
/** "Login server error: 'error occurred during login'; Login failed." (accounts seed §8): the server (5xx) or the
 * network failed, not the credentials; the screen says so instead of asking to check them. */
export const LOGIN_SERVER_ERROR = "error occurred during login";
/** The password was right but the organisation signs in through its identity provider (issue 33): 403 forbidden. */
export const LOGIN_PROVIDER_ONLY = "organisation signs in through its identity provider";

/** Whether a failed login is the server's or the network's fault (status 0: no answer; 5xx) rather than the user's. */
export const isLoginServerError = (status: number | undefined): boolean => status === undefined || status === 0 || status >= 500;

export const loggedOut: SessionState = { status: "logged-out", loginError: null, claims: null, dialog: null };
