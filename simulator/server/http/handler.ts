import type {
  Endpoint,
  EndpointSpec,
  RequestOf,
  RequestOfSpec,
  ResponseOf,
  ResponseOfSpec,
  SuccessType,
} from "../../../core/model/contract/index.ts";
import type { TokenClaims } from "../auth/token.ts";
import type { ServerContext } from "../context.ts";

// A handler per contract call: it gets the decoded query/body, the verified token's claims and the server context,
// and answers the typed `data` (plus a success responseType where the contract allows one).

interface CallContext {
  readonly ctx: ServerContext;
  /** Claims of the bearer token (access, reset or invitation, as the endpoint's auth says); absent for auth "none". */
  readonly claims: TokenClaims | undefined;
  /** The caller's address (login rate limit). */
  readonly client: string;
}

export type Call<E extends Endpoint> = RequestOf<E> & CallContext;

export interface Reply<T> {
  readonly data: T;
  readonly responseType?: SuccessType;
  /** Set by login (a new session); other calls get a refreshed token from the router. */
  readonly accessToken?: string;
  /** The patients whose data the answer carries, for the audit trail, where the data cannot say (pre-encoded text). */
  readonly patientsRead?: readonly string[];
}

export type Handler<E extends Endpoint> = (call: Call<E>) => Promise<Reply<ResponseOf<E>>>;
export type Handlers = { readonly [E in Endpoint]: Handler<E> };
export type SomeHandlers<K extends Endpoint> = { readonly [E in K]: Handler<E> };

/** A handler of a call outside the contract (development and simulator-control calls), typed by its spec. */
export type SpecHandler<S extends EndpointSpec> = (call: RequestOfSpec<S> & CallContext) => Promise<Reply<ResponseOfSpec<S>>>;
/** Handlers of a set of specs, by the specs' names. */
export type SpecHandlers<Specs extends Readonly<Record<string, EndpointSpec>>> = {
  readonly [K in keyof Specs as Specs[K]["name"]]: SpecHandler<Specs[K]>;
};

/** The claims of an access-token call (bearer endpoints always have them). */
export const claimsOf = (call: { readonly claims: TokenClaims | undefined }): TokenClaims => {
  if (!call.claims) throw new Error("bearer endpoint without claims");
  return call.claims;
};
