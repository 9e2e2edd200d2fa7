import { compiledDecoder } from "../adapters/http/compiled-decoder.ts";
import { createHttpApi, type FetchLike } from "../adapters/http/http-api.ts";
import { nodeFetch } from "../adapters/http/node-fetch.ts";
import { memoryStore } from "../adapters/storage/memory-storage.ts";
import type { EndpointSpec, RequestOfSpec, ResponseOfSpec } from "../core/model/contract/index.ts";
import type { Api, KeyValueStore } from "../core/ports.ts";
import { StorageKeys } from "../core/ports.ts";
import type { SharedOptions } from "./command.ts";
import { CliError, ExitCode } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";
import { configHome } from "./profiles/config-home.ts";
import { ProfileStore, checkProfileName, checkServerUrl } from "./profiles/profile-store.ts";

// Which server and profile a command talks to, and the Api port over HTTP with the profile's token. The token file
// is the session storage: a fresh token the server sends back (seeds: "any response carrying an accessToken stores
// it") lands in the same 0600 file.

export interface Target {
  readonly store: ProfileStore;
  readonly profile: string;
  /** Normalised server URL, or null when neither the options, the environment nor the profile name one. */
  readonly server: string | null;
}

export function resolveTarget(options: SharedOptions, io: CliIo): Target {
  const store = new ProfileStore(configHome(io.env));
  const file = store.read();
  const profile = checkProfileName(options.profile ?? io.env.ISOPTER_PROFILE ?? file.current);
  const raw = options.server ?? io.env.ISOPTER_SERVER ?? file.profiles[profile]?.server ?? null;
  return { store, profile, server: raw === null ? null : checkServerUrl(raw) };
}

export const apiBaseOf = (server: string) => `${server}/api/`;

/** A fresh token is written to the file at most this often (and once more on exit). */
const TOKEN_WRITE_MS = 5_000;

/** Session storage backed by the profile's token file. Every answer carries a fresh token (sliding session); an export
 * gets a thousand of them, so the token lives in memory and reaches the 0600 file every few seconds and on exit,
 * instead of a write (four file operations) per call. */
function tokenSessionStore(store: ProfileStore, profile: string): KeyValueStore {
  const other = memoryStore();
  let token: string | null | undefined; // undefined: not read yet
  let unwritten = false;
  let writtenAt = 0;
  let hooked = false;
  const flush = () => {
    if (!unwritten || token == null) return;
    unwritten = false;
    writtenAt = Date.now();
    store.writeToken(profile, token);
  };
  return {
    get: (key) =>
      key === StorageKeys.session.accessToken ? (token === undefined ? (token = store.readToken(profile)) : token) : other.get(key),
    set: (key, value) => {
      if (key !== StorageKeys.session.accessToken) return other.set(key, value);
      if (!hooked) process.once("exit", flush);
      hooked = true;
      token = value;
      unwritten = true;
      if (Date.now() - writtenAt >= TOKEN_WRITE_MS) flush();
    },
    remove: (key) => {
      if (key !== StorageKeys.session.accessToken) return other.remove(key);
      token = null;
      unwritten = false;
      store.removeToken(profile);
    },
  };
}

/** One keep-alive transport for the process (node:http; an export makes a thousand calls). */
let transport: FetchLike | undefined;
const processTransport = () => (transport ??= nodeFetch());

export function apiFor(target: Target & { server: string }, fetchImpl?: FetchLike): Api {
  return createHttpApi({
    apiBase: apiBaseOf(target.server),
    storage: { session: tokenSessionStore(target.store, target.profile), local: memoryStore() },
    fetch: fetchImpl ?? processTransport(),
    decoder: compiledDecoder,
  });
}

/** A typed caller of calls outside core/model/contract (e.g. adapters/http/simulator-control.ts), with the session's
 * token, through the same HTTP adapter (envelope, errors, fresh tokens stored). */
export function callerFor<C extends Readonly<Record<string, EndpointSpec>>>(session: Session, calls: C) {
  const api = createHttpApi({
    apiBase: apiBaseOf(session.server),
    storage: { session: tokenSessionStore(session.store, session.profile), local: memoryStore() },
    contract: calls,
    fetch: processTransport(),
    decoder: compiledDecoder,
  });
  return <K extends keyof C & string>(name: K, input: RequestOfSpec<C[K]>): Promise<ResponseOfSpec<C[K]>> =>
    api.call(name as never, input as never) as Promise<ResponseOfSpec<C[K]>>;
}

export interface Session {
  readonly api: Api;
  readonly store: ProfileStore;
  readonly server: string;
  readonly profile: string;
  readonly token: string;
}

/** A logged-in session, or exit 3 with what to do. */
export function openSession(options: SharedOptions, io: CliIo): Session {
  const target = resolveTarget(options, io);
  if (target.server === null)
    throw new CliError(ExitCode.NotLoggedIn, `profile "${target.profile}" has no server: run \`isopter login --server URL\``);
  const token = target.store.readToken(target.profile);
  if (token === null) throw new CliError(ExitCode.NotLoggedIn, `not logged in (profile "${target.profile}"): run \`isopter login\``);
  // A token only ever goes to the server that issued it: --server / ISOPTER_SERVER pointing elsewhere needs its own login.
  const loggedInTo = target.store.read().profiles[target.profile]?.server;
  if (loggedInTo !== undefined && checkServerUrl(loggedInTo) !== target.server)
    throw new CliError(
      ExitCode.NotLoggedIn,
      `profile "${target.profile}" is logged in to ${loggedInTo}, not ${target.server}: run \`isopter login --server ${target.server} --profile NAME\``,
    );
  return { api: apiFor({ ...target, server: target.server }), store: target.store, server: target.server, profile: target.profile, token };
}
