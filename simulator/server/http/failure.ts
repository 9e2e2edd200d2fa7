import type { ErrorType } from "../../../core/model/contract/index.ts";

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
