import { ApiError } from "../model/contract/errors.ts";
import type { Api } from "../ports.ts";

// "A token-expired or token-verification-error event, or any 4xx response above 400 and below 500, shows the
// session-expired dialog and redirects to /login." (accounts seed §4)

/** The status part of the rule: above 400 and below 500. */
export const isSessionExpiryStatus = (status: number): boolean => status > 400 && status < 500;

/** Error types a screen handles itself, so they never end the session although their status is in 401..499: the drag
 * conflict refetches devices (scheduling seed §4), a wrong password is "Login failed.", a stale reset link is 'link
 * expired' (accounts seed §7). Our reading; the seed's blanket rule would log a user out for a lost drag race. */
export const HANDLED_BY_CALLER: ReadonlySet<string> = new Set([
  // 403: the caller's role may not do this; the session is as valid as before (issue 21: a manager refused an admin
  // action was logged out). The screen says it could not be done.
  "forbidden",
  "device_revision_conflict",
  "invalid_credentials",
  "user_not_found",
  "not_found",
  "conflict",
  "device_busy",
  "device_not_connected",
  "already_invited",
  "already_registered",
  // About the request, not who sent it: a body over the server's limit, too many calls at once.
  "payload_too_large",
  "rate_limited",
]);

/** Statuses that judge the request's size or pace, never the caller, also when a proxy answers them without our envelope
 * (nginx's own 413 page): 408 request timeout, 413 payload too large, 429 too many requests. */
const REQUEST_STATUSES: ReadonlySet<number> = new Set([408, 413, 429]);

/** Calls whose 4xx answers concern the form, not the session (no session exists yet, or a link token is checked). */
const SESSIONLESS_CALLS: ReadonlySet<string> = new Set([
  "login",
  "passwordReset.request",
  "passwordReset.confirm",
  "passwordReset.check",
  "user.signup",
  // The second step of a login (issue 33 item 2): its challenge is no session.
  "secondFactor.signIn",
  "secondFactor.signInEnrol",
  "secondFactor.signInConfirm",
]);

/** Whether a failed call ends the session. */
export function endsSession(endpoint: string, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (SESSIONLESS_CALLS.has(endpoint)) return false;
  if (error.responseType === "token_expired" || error.responseType === "token_verification_error") return true;
  if (error.responseType !== undefined && HANDLED_BY_CALLER.has(error.responseType)) return false;
  if (REQUEST_STATUSES.has(error.status)) return false;
  return isSessionExpiryStatus(error.status);
}

/** The Api seen by the client and its users: the same calls, and a failure that ends the session calls `onExpired`. */
export function guardApi(api: Api, onExpired: (endpoint: string, error: ApiError) => void): Api {
  return {
    async call(endpoint, input) {
      try {
        return await api.call(endpoint, input);
      } catch (e) {
        if (endsSession(endpoint, e)) onExpired(endpoint, e as ApiError);
        throw e;
      }
    },
  };
}
