import { Result } from "effect";
import pg from "pg";
import WebSocket from "ws";
import {
  contract,
  decodeResponse,
  encodeRequest,
  type Endpoint,
  type RequestOf,
  type ResponseOf,
} from "../../core/model/contract/index.ts";
import type { LiveMessage } from "../../core/model/live.ts";
import { startServer, type RunningServer, type ServerOptions } from "../../simulator/server/server.ts";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import type { Storage } from "../../simulator/server/db/open.ts";
import { pairingCodesFor, reenrolHeadset } from "../../simulator/server/device/enrolment.ts";
import { enrolmentBySn } from "../../simulator/server/store/enrolment.ts";
import { PROTOCOL_VERSION } from "../../core/device/protocol.ts";

// Test harness: one server per test file (PGlite in memory, or a throwaway database inside TEST_DATABASE_URL), the
// demo clinic seeded with a known password, and a client that speaks the contract (encodeRequest/decodeResponse, so
// every answer is checked against the contract's response schema).

export const DEMO_PASSWORD = "Demo-Pass-123";

export type Backend = "pglite" | "postgres";

/** A fresh database for one test file; `drop` removes it (PostgreSQL) afterwards. */
export const testStorage = async (backend: Backend): Promise<{ storage: Storage; drop(): Promise<void> }> => {
  if (backend === "pglite") return { storage: { kind: "pglite", dataDir: undefined }, drop: async () => undefined };
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `isopter_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    storage: { kind: "postgres", url: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
};

export interface TestServer extends RunningServer {
  drop(): Promise<void>;
}

export const startTestServer = async (backend: Backend, options: Partial<ServerOptions> = {}): Promise<TestServer> => {
  const { storage, drop } = await testStorage(backend);
  const server = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", ...options });
  await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
  return {
    ...server,
    ctx: server.ctx,
    async drop() {
      await server.close();
      await drop();
    },
  };
};

export interface Answer<T> {
  readonly status: number;
  readonly data: T;
  readonly responseType: string | undefined;
  readonly accessToken: string | undefined;
  /** Failure body {message, field?} when status is not 200. */
  readonly error: { message: string; field?: string } | undefined;
}

/** Raw HTTP: method, path under /api/, a JSON-able body (or raw text), a token. */
export const raw = async (base: string, method: string, path: string, body?: unknown, token?: string, rawBody?: string) => {
  const res = await fetch(`${base}/api/${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(method === "GET" || method === "HEAD"
      ? {}
      : rawBody !== undefined
        ? { body: rawBody }
        : body !== undefined
          ? { body: JSON.stringify(body) }
          : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json: json as { data?: unknown; responseType?: string; accessToken?: string } };
};

/** Calls a contract endpoint with typed input; the answer is decoded with the contract (a breach fails the test). */
export const call = async <E extends Endpoint>(
  base: string,
  name: E,
  input: RequestOf<E>,
  token?: string,
): Promise<Answer<ResponseOf<E>>> => {
  const spec = contract[name];
  const wire = encodeRequest(spec, input);
  if (Result.isFailure(wire)) throw new Error(`cannot encode ${name}: ${wire.failure.message}`);
  const bearer = wire.success.token ?? token;
  const res = await fetch(`${base}${wire.success.url}`, {
    method: wire.success.method,
    headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    ...(wire.success.body !== undefined ? { body: wire.success.body } : {}),
  });
  const json = (await res.json()) as { data: unknown; responseType?: string; accessToken?: string };
  const decoded = decodeResponse(spec, res.status, json);
  if (Result.isFailure(decoded)) {
    if (decoded.failure.responseType === "invalid_response")
      throw new Error(`${name}: answer breaks the contract: ${decoded.failure.message}`);
    return {
      status: res.status,
      data: undefined as never,
      responseType: json.responseType,
      accessToken: json.accessToken,
      error: json.data as never,
    };
  }
  return {
    status: res.status,
    data: decoded.success.data as ResponseOf<E>,
    responseType: decoded.success.responseType,
    accessToken: decoded.success.accessToken,
    error: undefined,
  };
};

/** Calls and insists on success. */
export const ok = async <E extends Endpoint>(base: string, name: E, input: RequestOf<E>, token?: string): Promise<ResponseOf<E>> => {
  const a = await call(base, name, input, token);
  if (a.status !== 200) throw new Error(`${name} answered ${a.status} ${a.responseType}: ${a.error?.message} (${a.error?.field})`);
  return a.data;
};

export const login = async (base: string, username: string, password = DEMO_PASSWORD) =>
  (await ok(base, "login", { body: { username, password } })).accessToken;

/** A browser live socket after the logged-in handshake; collects every message. */
export const liveSocket = async (base: string, token: string) => {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/api/ws`);
  const messages: LiveMessage[] = [];
  const waiters: Array<{ test: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void }> = [];
  socket.on("message", (data) => {
    const m = JSON.parse(data.toString()) as LiveMessage;
    messages.push(m);
    for (const w of [...waiters])
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  socket.send(JSON.stringify({ type: "logged_in", accessToken: token, message: "logged in" }));
  socket.send(JSON.stringify({ type: "ping" }));
  /** The first message (from index `since` on) that passes the test, now or when it arrives. */
  const next = (test: (m: LiveMessage) => boolean, timeoutMs = 5000, since = 0) =>
    new Promise<LiveMessage>((resolve, reject) => {
      const seen = messages.slice(since).find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no live message matched within ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => [m.type, "operation" in m ? m.operation : ""]))}`,
            ),
          ),
        timeoutMs,
      );
      waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  await next((m) => m.type === "pong");
  return { socket, messages, next, closed, close: () => socket.close() };
};

/** Pairing codes for registered serials, issued as for npm start's virtual headsets, as the keys startHeadsets takes. */
export const headsetKeys = async (server: RunningServer, serials: ReadonlyArray<string>) =>
  new Map([...(await pairingCodesFor(server.ctx, serials))].map(([sn, pairingCode]) => [sn, { pairingCode }]));

/** A fresh device credential for a registered serial (enrolled again, as a manager would). */
export const credentialFor = async (server: RunningServer, deviceSn: string): Promise<string> => {
  const row = await enrolmentBySn(server.db, deviceSn);
  if (!row) throw new Error(`no device ${deviceSn}`);
  return (await reenrolHeadset(server.ctx, { organisationId: row.organisationId, name: "test" }, row.id, "credential")).secret.value;
};

/** A minimal headset on /device: says hello with its credential (a fresh one unless given), records what the server
 * sends, acks commands when told to. */
export const fakeHeadset = async (
  server: RunningServer,
  deviceSn: string,
  options: { ack?: "ok" | "refuse" | "never"; credential?: string } = {},
) => {
  const ack = options.ack ?? "ok";
  const credential = options.credential ?? (await credentialFor(server, deviceSn));
  const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/device`);
  const received: Array<Record<string, unknown>> = [];
  const waiters: Array<{ test: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }> = [];
  socket.on("message", (data) => {
    const m = JSON.parse(data.toString()) as Record<string, unknown>;
    received.push(m);
    if (m.type === "command" && ack !== "never")
      socket.send(
        JSON.stringify({ type: "ack", commandId: m.commandId, ok: ack === "ok", ...(ack === "refuse" ? { error: "busy" } : {}) }),
      );
    for (const w of [...waiters])
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = (test: (m: Record<string, unknown>) => boolean, timeoutMs = 5000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = received.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () => reject(new Error(`headset got no matching message; got ${received.map((m) => m.type).join(",")}`)),
        timeoutMs,
      );
      waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  const send = (m: unknown) => socket.send(JSON.stringify(m));
  send({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn, firmware: "test-1", credential });
  await next((m) => m.type === "welcome" || m.type === "refused");
  return { socket, received, next, send, close: () => new Promise<void>((r) => (socket.once("close", () => r()), socket.close())) };
};
