import { Schema } from "effect";
import { ErrorDataSchema, ErrorTypeSchema, SuccessTypeSchema, errorStatus, type ErrorType, type SuccessType } from "./errors.ts";

// THE ENVELOPE (our design; the seeds imply `data`, `data.message`, `responseType` and an error type).
//
// Every response body is JSON  { data, responseType?, accessToken? }.
//  - Success: HTTP 200 (201 is not used). `data` is the call's response data (contract entry `response`).
//    `responseType` appears only where the seeds name one on success: device/standalone switched off answers
//    responseType "device_standalone_unset"; user/invite with some addresses skipped answers "invitations_partial".
//  - Failure: HTTP 4xx/5xx with data { message, field? } and responseType = one ErrorType (./errors.ts), whose HTTP
//    status is errorStatus[type]. validation_error names the offending field as a dotted path ("body.filter.page").
//  - accessToken: any response may carry a fresh token; the client stores it in session storage (both seeds).
//    Entries with carriesAccessToken say where the server may send one.

export const SUCCESS_STATUS = 200;

/** First-pass decode of any response body, before the call's own `response` schema is applied to `data`. */
export const EnvelopeSchema = Schema.Struct({
  data: Schema.Unknown,
  responseType: Schema.optionalKey(Schema.String),
  accessToken: Schema.optionalKey(Schema.String),
});
export type Envelope = Schema.Schema.Type<typeof EnvelopeSchema>;

/** The success envelope of a call whose data schema is `data`. */
export const successEnvelopeSchema = <S extends Schema.Top>(data: S) =>
  Schema.Struct({
    data,
    responseType: Schema.optionalKey(SuccessTypeSchema),
    accessToken: Schema.optionalKey(Schema.String),
  });

export const FailureEnvelopeSchema = Schema.Struct({
  data: ErrorDataSchema,
  responseType: ErrorTypeSchema,
  accessToken: Schema.optionalKey(Schema.String),
});
export type FailureEnvelope = Schema.Schema.Type<typeof FailureEnvelopeSchema>;

export interface SuccessEnvelope<D> {
  readonly data: D;
  readonly responseType?: SuccessType;
  readonly accessToken?: string;
}

/** A failure as status + body, ready for the server to send. */
export const failure = (type: ErrorType, message: string, field?: string): { readonly status: number; readonly body: FailureEnvelope } => ({
  status: errorStatus[type],
  body: { data: field === undefined ? { message } : { message, field }, responseType: type },
});
