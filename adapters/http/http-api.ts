import { Result, Schema } from "effect";
import {
  contract as defaultContract,
  ApiError,
  EnvelopeSchema,
  ErrorDataSchema,
  type EndpointSpec,
} from "../../core/model/contract/index.ts";
import { encode, toDecodeError, type Decodable, type DecodeError } from "../../core/model/decode.ts";
import { StorageKeys, type Api, type Storage } from "../../core/ports.ts";

// The Api port over fetch (scheduling seed §7, accounts seed §7): "All calls carry a bearer token. Failed responses are
// thrown as errors; queries retry once. Any response with an accessToken field stores it in session storage."
// The response is decoded once, here, with the contract's schema; callers get typed data or an ApiError.

/** What the adapter needs of a response: the global fetch's Response has it, so has node-fetch.ts's. */
export interface HttpResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  json(): Promise<unknown>;
}

/** What the adapter needs of fetch (the global fetch fits; node-fetch.ts is the CLI's keep-alive transport). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<HttpResponseLike>;

/** Makes the decoder of a schema (once per schema): the response's `data`, the envelope, error data. */
export type DecoderFactory = <T>(schema: Decodable<T>) => (input: unknown) => Result.Result<T, DecodeError>;

/** effect's interpreter, every issue reported (errors: "all"), naming the field (core/model/decode.ts). */
export const interpretedDecoder: DecoderFactory = <T>(schema: Decodable<T>) => {
  const run = Schema.decodeUnknownResult(schema);
  return (input: unknown) => Result.mapError(run(input, { errors: "all" }), (e) => toDecodeError(e.issue));
};

export interface HttpApiOptions {
  /** Base of every call, e.g. "http://127.0.0.1:3000/api/" (see backend.ts). */
  readonly apiBase: string;
  readonly storage: Storage;
  /** Default: the global fetch. */
  readonly fetch?: FetchLike;
  /** Default interpretedDecoder; Node processes pass compiled-decoder.ts's (effect's JIT), the same validation faster. */
  readonly decoder?: DecoderFactory;
  /** The calls by name; defaults to core/model/contract. */
  readonly contract?: Readonly<Record<string, EndpointSpec>>;
}

type AnyInput = { readonly query?: unknown; readonly body?: unknown; readonly token?: string };

/** "queries retry once": a GET is tried again once when it failed without a deliberate 4xx answer from the server. */
export const shouldRetryQuery = (method: string, error: ApiError): boolean =>
  method === "GET" && !(error.status >= 400 && error.status < 500);

/** The system error code of a failed fetch: node:http's own, or the cause of the global fetch's "fetch failed". */
const errorCode = (e: unknown): string | undefined => {
  const code = (x: unknown) => (typeof x === "object" && x !== null && "code" in x ? String((x as { code: unknown }).code) : undefined);
  return code(e) ?? (typeof e === "object" && e !== null && "cause" in e ? code((e as { cause: unknown }).cause) : undefined);
};

const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);
const connectionReset = (e: unknown) => RESET_CODES.has(errorCode(e) ?? "");
const networkMessage = (e: unknown) => {
  const code = errorCode(e);
  const message = (e as Error).message;
  return code && !message.includes(code) ? `${message} (${code})` : message;
};

export function createHttpApi(options: HttpApiOptions): Api {
  const doFetch: FetchLike = options.fetch ?? globalThis.fetch.bind(globalThis);
  const makeDecoder = options.decoder ?? interpretedDecoder;
  const decoders = new Map<EndpointSpec, (input: unknown) => Result.Result<unknown, DecodeError>>();
  const responseDecoder = (spec: EndpointSpec) => {
    let d = decoders.get(spec);
    if (!d) decoders.set(spec, (d = makeDecoder(spec.response)));
    return d;
  };
  const decodeEnvelope = makeDecoder(EnvelopeSchema);
  const decodeErrorData = makeDecoder(ErrorDataSchema);
  const calls = options.contract ?? (defaultContract as Readonly<Record<string, EndpointSpec>>);
  const base = options.apiBase.endsWith("/") ? options.apiBase : `${options.apiBase}/`;
  const session = options.storage.session;

  const failure = (status: number, message: string, responseType?: string, field?: string) =>
    new ApiError({ status, responseType, message, field });

  function request(spec: EndpointSpec, input: AnyInput): { url: string; init: Parameters<FetchLike>[1] } {
    let url = base + spec.path;
    if (spec.query) {
      const encoded = encode(spec.query, input.query);
      if (Result.isFailure(encoded))
        throw failure(0, `${spec.name}: invalid query: ${encoded.failure.message}`, "validation_error", encoded.failure.field);
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(encoded.success as Record<string, unknown>))
        if (v !== undefined && v !== null) params.set(k, String(v));
      const qs = params.toString();
      if (qs) url += `?${qs}`;
    }
    const headers: Record<string, string> = { accept: "application/json" };
    const token =
      spec.auth === "bearer" ? session.get(StorageKeys.session.accessToken) : spec.auth === "none" ? null : (input.token ?? null);
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (spec.body) {
      const encoded = encode(spec.body, input.body);
      if (Result.isFailure(encoded))
        throw failure(0, `${spec.name}: invalid body: ${encoded.failure.message}`, "validation_error", encoded.failure.field);
      body = JSON.stringify(encoded.success ?? null);
      headers["content-type"] = "application/json";
    }
    return { url, init: { method: spec.method, headers, ...(body !== undefined ? { body } : {}) } };
  }

  /** The answer, or the request sent once more when a kept-alive connection was reset before any answer. */
  async function send(spec: EndpointSpec, url: string, init: Parameters<FetchLike>[1]): Promise<HttpResponseLike> {
    try {
      return await doFetch(url, init);
    } catch (e) {
      // A server closes an idle keep-alive connection; a request sent on it as it closes is reset unread. Browsers
      // send such a request again on a new connection, whatever its method; so does this adapter, once.
      if (!connectionReset(e)) throw failure(0, `Network error calling ${spec.name}: ${networkMessage(e)}`);
    }
    try {
      return await doFetch(url, init);
    } catch (e) {
      throw failure(0, `Network error calling ${spec.name}: ${networkMessage(e)}`);
    }
  }

  async function once(spec: EndpointSpec, url: string, init: Parameters<FetchLike>[1]): Promise<unknown> {
    const res = await send(spec, url, init);
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw failure(res.status, res.ok ? `Unexpected response from ${spec.name}: not JSON` : res.statusText || `HTTP ${res.status}`);
    }
    const envelope = decodeEnvelope(json);
    if (Result.isFailure(envelope))
      throw failure(
        res.status,
        res.ok ? `Unexpected response from ${spec.name}: ${envelope.failure.message}` : res.statusText || `HTTP ${res.status}`,
      );
    const { data, responseType, accessToken } = envelope.success;
    if (accessToken) session.set(StorageKeys.session.accessToken, accessToken);
    if (!res.ok) {
      const error = decodeErrorData(data);
      const message = Result.isSuccess(error) ? error.success.message : res.statusText || `HTTP ${res.status}`;
      throw failure(res.status, message, responseType, Result.isSuccess(error) ? error.success.field : undefined);
    }
    const decoded = responseDecoder(spec)(data);
    if (Result.isFailure(decoded))
      throw failure(res.status, `Unexpected response from ${spec.name}: ${decoded.failure.message}`, undefined, decoded.failure.field);
    return decoded.success;
  }

  return {
    async call(endpoint, input) {
      const spec = calls[endpoint as string];
      if (!spec) throw failure(0, `Unknown call ${String(endpoint)}`);
      const { url, init } = request(spec, input as AnyInput);
      try {
        return (await once(spec, url, init)) as never;
      } catch (e) {
        if (e instanceof ApiError && shouldRetryQuery(spec.method, e)) return (await once(spec, url, init)) as never;
        throw e;
      }
    },
  };
}
