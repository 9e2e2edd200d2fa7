import { Schema } from "effect";

// The closed list of error types a failed response may carry in `responseType` (envelope: see ./envelope.ts).
// Seed-named: device_revision_conflict (scheduling §4, §8), user_not_found (accounts §7), token_expired and
// token_verification_error (accounts §4), already_invited / already_registered (accounts §7 "warning if some already
// invited or registered"). The rest is our design (payload_too_large: a body over the limit; unavailable: the database
// is away for a moment, with Retry-After) for the statuses the seeds imply (401, 4xx, 409, 5xx).

/** HTTP status for each error type. */
export const errorStatus = {
  validation_error: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  token_expired: 401,
  token_verification_error: 401,
  forbidden: 403,
  not_found: 404,
  user_not_found: 404,
  device_revision_conflict: 409,
  device_busy: 409,
  device_not_connected: 409,
  conflict: 409,
  already_invited: 409,
  already_registered: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorType = keyof typeof errorStatus;
export const ErrorTypes = Object.keys(errorStatus) as ReadonlyArray<ErrorType>;
export const ErrorTypeSchema = Schema.Literals(ErrorTypes as readonly [ErrorType, ...ErrorType[]]);

/**
 * responseType values that accompany a SUCCESS (HTTP 200).
 * device_standalone_unset: scheduling seed §7, "success is status 200 or responseType device_standalone_unset".
 * invitations_partial: our design for accounts §7 "warning if some already invited or registered".
 */
export const SuccessTypes = ["device_standalone_unset", "invitations_partial"] as const;
export type SuccessType = (typeof SuccessTypes)[number];
export const SuccessTypeSchema = Schema.Literals(SuccessTypes);

/** The `data` of a failed response: a readable message and, for validation errors, the offending field path. */
export const ErrorDataSchema = Schema.Struct({
  message: Schema.String,
  field: Schema.optionalKey(Schema.String),
});
export type ErrorData = Schema.Schema.Type<typeof ErrorDataSchema>;

/**
 * A failed call as the client sees it. `status` 0 means the request never got an HTTP answer (network failure);
 * `responseType` is undefined when the body was not our envelope.
 */
export class ApiError extends Error {
  readonly _tag = "ApiError";
  readonly status: number;
  readonly responseType: string | undefined;
  readonly field: string | undefined;
  constructor(options: { status: number; responseType: string | undefined; message: string; field?: string | undefined }) {
    super(options.message);
    this.name = "ApiError";
    this.status = options.status;
    this.responseType = options.responseType;
    this.field = options.field;
  }
  /** True when the error is one of the given types (e.g. `isType("device_revision_conflict")`). */
  isType(...types: ReadonlyArray<ErrorType>): boolean {
    return this.responseType !== undefined && (types as ReadonlyArray<string>).includes(this.responseType);
  }
}

export const isApiError = (u: unknown): u is ApiError => u instanceof ApiError;
