import type { EndpointSpec, RequestOfSpec, ResponseOfSpec, WireRequestOfSpec } from "./endpoint.ts";
import * as accounts from "./accounts.ts";

export * from "./endpoint.ts";
export * from "./errors.ts";

/** Every call, keyed by name. */
export const contract = {
  [accounts.login.name]: accounts.login,
  [accounts.logout.name]: accounts.logout,
} as const satisfies Record<string, EndpointSpec>;

export type Contract = typeof contract;
export type Endpoint = keyof Contract;
export type RequestOf<E extends Endpoint> = RequestOfSpec<Contract[E]>;
export type WireRequestOf<E extends Endpoint> = WireRequestOfSpec<Contract[E]>;
export type ResponseOf<E extends Endpoint> = ResponseOfSpec<Contract[E]>;

export const endpoints: ReadonlyArray<EndpointSpec> = Object.values(contract);
