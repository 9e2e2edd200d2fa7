import type { ErrorType } from "../../../core/model/contract/index.ts";
import type { Role } from "../../../core/model/enums.ts";

/** A handled failure: answered as the envelope {data: {message, field?}, responseType} with the type's HTTP status. */
export class Failure extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const notFound = (what: string, field = "query.id") => new Failure("not_found", `${what} not found`, field);
export const invalid = (field: string, message: string) => new Failure("validation_error", `${field}: ${message}`, field);
export const forbidden = (message = "Your role may not do this") => new Failure("forbidden", message);

/** A call for some roles only, refused to another: "Admins only", "Admins and managers only". */
export const onlyRoles = (roles: ReadonlyArray<Role>) => {
  const names = roles.map((r) => `${r}s`).join(" and ");
  return forbidden(`${names.charAt(0).toUpperCase()}${names.slice(1)} only`);
};

const endedBecause: Record<string, string> = {
  another_session_opened: "The session ended: the same user logged in from another web client",
  logout: "The session ended with a logout",
  password_changed: "The session ended: the password was changed",
  password_reset: "The session ended: the password was reset",
  role_changed: "The session ended: the account's role changed; log in again",
  user_deleted: "The session ended: the account was deleted",
};

/** A refused access token (AuthCheck failure) as the failure the client answers with the session-expired behaviour. */
export const refusedToken = (check: { reason: "token_expired" | "token_verification_error"; ended?: string | undefined }) =>
  new Failure(
    check.reason,
    check.reason === "token_expired"
      ? "The session has expired"
      : ((check.ended && endedBecause[check.ended]) ?? "The token could not be verified"),
  );
