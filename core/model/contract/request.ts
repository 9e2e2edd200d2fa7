import { Result, Schema } from "effect";
import { toDecodeError, type DecodeError } from "../decode.ts";
import { ApiError } from "./errors.ts";
import { EnvelopeSchema, FailureEnvelopeSchema, SUCCESS_STATUS, type SuccessEnvelope } from "./envelope.ts";
import { API_PREFIX, type EndpointSpec } from "./endpoint.ts";
import type { SuccessType } from "./errors.ts";

// Both ends of a call, driven by a contract entry: the client encodes a request and decodes the answer;
// the server decodes the request and encodes the answer. Every failure names the field.

const opts = { errors: "all" } as const;

const prefixed = (prefix: string, e: DecodeError): DecodeError => {
  const issues = e.issues.map((i) => ({ path: i.path ? `${prefix}.${i.path}` : prefix, message: i.message }));
  return {
    _tag: "DecodeError",
    issues,
    field: issues[0]?.path ?? prefix,
    message: issues.map((i) => `${i.path}: ${i.message}`).join("; "),
  };
};

const run = <A>(r: Result.Result<A, Schema.SchemaError>, prefix: string): Result.Result<A, DecodeError> =>
  Result.mapError(r, (e) => prefixed(prefix, toDecodeError(e.issue)));

/** "a=1&b=x%20y" from string values; undefined values are left out. */
export const queryString = (query: Readonly<Record<string, string | undefined>>): string =>
  Object.entries(query)
    .filter((kv): kv is [string, string] => kv[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");

export interface WireRequest {
  readonly method: EndpointSpec["method"];
  /** "/api/{path}?{query}" relative to the server's origin. */
  readonly url: string;
  /** JSON text of the body, or undefined when the call has none. */
  readonly body: string | undefined;
  /** Token to send as `Authorization: Bearer` for reset-token / invitation-token calls (session calls use the stored token). */
  readonly token: string | undefined;
}

/** Client side: typed input -> method, URL, JSON body. */
export const encodeRequest = (spec: EndpointSpec, input: unknown): Result.Result<WireRequest, DecodeError> => {
  const i = (input ?? {}) as { query?: unknown; body?: unknown; token?: string };
  let qs = "";
  if (spec.query) {
    const q = run(Schema.encodeUnknownResult(spec.query)(i.query, opts), "query");
    if (Result.isFailure(q)) return q;
    qs = queryString(q.success as Record<string, string | undefined>);
  }
  let body: string | undefined;
  if (spec.body) {
    const b = run(Schema.encodeUnknownResult(spec.body)(i.body, opts), "body");
    if (Result.isFailure(b)) return b;
    body = JSON.stringify(b.success);
  }
  return Result.succeed({
    method: spec.method,
    url: `${API_PREFIX}${spec.path}${qs ? `?${qs}` : ""}`,
    body,
    token: spec.auth === "reset-token" || spec.auth === "invitation-token" ? i.token : undefined,
  });
};

/** Server side: raw query values and parsed JSON body -> typed input (errors name "query.x" / "body.x"). */
export const decodeRequest = (
  spec: EndpointSpec,
  raw: { readonly query: Readonly<Record<string, string | undefined>>; readonly body: unknown },
): Result.Result<{ readonly query?: unknown; readonly body?: unknown }, DecodeError> => {
  const out: { query?: unknown; body?: unknown } = {};
  if (spec.query) {
    const q = run(Schema.decodeUnknownResult(spec.query)(raw.query, opts), "query");
    if (Result.isFailure(q)) return q;
    out.query = q.success;
  }
  if (spec.body) {
    const b = run(Schema.decodeUnknownResult(spec.body)(raw.body, opts), "body");
    if (Result.isFailure(b)) return b;
    out.body = b.success;
  }
  return Result.succeed(out);
};

/** Server side: typed data -> the success envelope (JSON-ready). */
export const encodeSuccess = (
  spec: EndpointSpec,
  data: unknown,
  extras: { readonly responseType?: SuccessType; readonly accessToken?: string } = {},
): Result.Result<SuccessEnvelope<unknown>, DecodeError> =>
  Result.map(run(Schema.encodeUnknownResult(spec.response)(data, opts), "data"), (encoded) => ({
    data: encoded,
    ...(extras.responseType !== undefined ? { responseType: extras.responseType } : {}),
    ...(extras.accessToken !== undefined ? { accessToken: extras.accessToken } : {}),
  }));

export interface DecodedAnswer {
  readonly data: unknown;
  readonly responseType: string | undefined;
  readonly accessToken: string | undefined;
}

/**
 * Client side: HTTP status and parsed JSON body -> the decoded answer, or an ApiError. A failure body still passes
 * on its accessToken (the caller stores it either way). An answer that breaks the contract is an ApiError with
 * responseType "invalid_response" naming the field.
 */
export const decodeResponse = (spec: EndpointSpec, status: number, json: unknown): Result.Result<DecodedAnswer, ApiError> => {
  const envelope = Schema.decodeUnknownResult(EnvelopeSchema)(json, opts);
  if (Result.isFailure(envelope)) {
    const message = status === SUCCESS_STATUS ? "Response is not an envelope" : `HTTP ${status}`;
    return Result.fail(new ApiError({ status, responseType: undefined, message }));
  }
  const { responseType, accessToken } = envelope.success;
  if (status !== SUCCESS_STATUS) {
    const f = Schema.decodeUnknownResult(FailureEnvelopeSchema)(json, opts);
    const message = Result.isSuccess(f) ? f.success.data.message : `HTTP ${status}`;
    const field = Result.isSuccess(f) ? f.success.data.field : undefined;
    return Result.fail(new ApiError({ status, responseType, message, field }));
  }
  const data = run(Schema.decodeUnknownResult(spec.response)(envelope.success.data, opts), "data");
  if (Result.isFailure(data)) {
    return Result.fail(
      new ApiError({ status, responseType: "invalid_response", message: data.failure.message, field: data.failure.field }),
    );
  }
  return Result.succeed({ data: data.success, responseType, accessToken });
};
