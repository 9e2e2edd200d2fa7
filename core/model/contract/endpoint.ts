import type { Schema } from "effect";
import type { Role } from "../enums.ts";
import type { ErrorType, SuccessType } from "./errors.ts";

// One API call as data. The server mounts every endpoint at /api/{path}; the client adapter builds the URL from
// path + encoded query, sends the encoded body as JSON, and decodes the envelope's `data` with `response`.

/** The mount point of every endpoint on the server. */
export const API_PREFIX = "/api/";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: "bearer" = the session access token; "none" = no token (login, reset request);
 * "reset-token" = the temporary token of the reset link as bearer; "invitation-token" = the invitation token as bearer.
 */
export type Auth = "bearer" | "none" | "reset-token" | "invitation-token";

/** Where the call comes from: a seed's call table, or our design (a call the seeds name without a shape, or none). */
export type Source = "scheduling §7" | "accounts §7" | "both §7" | "our design";

/** Codec usable without services (every contract schema is). */
export type AnySchema = Schema.Codec<any, any, never, never>;

export interface EndpointSpec {
  readonly name: string;
  readonly method: Method;
  /** Relative, no leading slash, e.g. "patient/search". */
  readonly path: string;
  /** Query parameters; the Encoded side is strings (what a URL carries). */
  readonly query?: AnySchema;
  /** JSON body. */
  readonly body?: AnySchema;
  /** The envelope's `data` on success. */
  readonly response: AnySchema;
  /** Error types (envelope responseType on failure) this call may answer, beyond the ones every call may answer. */
  readonly errors: ReadonlyArray<ErrorType>;
  /** responseType values this call may answer on success. */
  readonly successTypes?: ReadonlyArray<SuccessType>;
  readonly auth: Auth;
  /** Only these roles may call (bearer calls; the server answers forbidden to any other). Absent: every role, or a rule
   * finer than a role that the call's handler applies (core/rules/user-admin.ts and the like). */
  readonly roles?: ReadonlyArray<Role>;
  /** The envelope may carry a fresh accessToken (the client stores it in session storage). */
  readonly carriesAccessToken: boolean;
  readonly source: Source;
  /** What we designed where the seeds say 'not shown' or give no shape. */
  readonly ourDesign?: string;
}

/** Identity with `const` inference so each entry keeps its exact schema types. */
export const endpoint = <const E extends EndpointSpec>(spec: E): E => spec;

/** Error types any call may answer (bad input, too large a body, missing/expired token, server fault, database away). */
export const commonErrors: ReadonlyArray<ErrorType> = [
  "validation_error",
  "unauthorized",
  "token_expired",
  "token_verification_error",
  "payload_too_large",
  "rate_limited",
  "internal_error",
  "unavailable",
];

type TypeOf<S> = S extends { readonly Type: infer T } ? T : never;
type EncodedOf<S> = S extends { readonly Encoded: infer T } ? T : never;

/** The typed input of a call: `query` and `body` where the endpoint has them, `token` for reset/invitation-token calls. */
export type RequestOfSpec<E extends EndpointSpec> = (E extends { readonly query: infer Q } ? { readonly query: TypeOf<Q> } : unknown) &
  (E extends { readonly body: infer B } ? { readonly body: TypeOf<B> } : unknown) &
  (E extends { readonly auth: "reset-token" | "invitation-token" } ? { readonly token: string } : unknown);

/** The same input as it travels (query strings, JSON body). */
export type WireRequestOfSpec<E extends EndpointSpec> = (E extends { readonly query: infer Q }
  ? { readonly query: EncodedOf<Q> }
  : unknown) &
  (E extends { readonly body: infer B } ? { readonly body: EncodedOf<B> } : unknown);

export type ResponseOfSpec<E extends EndpointSpec> = TypeOf<E["response"]>;
