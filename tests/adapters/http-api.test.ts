import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Schema } from "effect";
import fc from "fast-check";
import {
  createHttpApi,
  backendFor,
  interpretedDecoder,
  socketUrlFor,
  shouldRetryQuery,
  type HttpApiOptions,
} from "../../adapters/http/index.ts";
import { compiledDecoder } from "../../adapters/http/compiled-decoder.ts";
import { nodeFetch } from "../../adapters/http/node-fetch.ts";
import { memoryStorage } from "../../adapters/storage/index.ts";
import { ApiError, contract, endpoint, type EndpointSpec } from "../../core/model/contract/index.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";
import { StorageKeys, type Api } from "../../core/ports.ts";

/** A patient's results as the server sends them (the CLI's fixtures: both eyes, with and without normative data). */
const sampleMeasurementsPage = () => {
  const p = samplePatient(3);
  return Array.from({ length: 6 }, (_, k) => sampleMeasurement(p, k, { falsePositives: k % 3 }));
};

// A small contract of our own so the adapter is tested apart from the project's call list.
const calls = {
  thing: endpoint({
    name: "thing",
    method: "GET",
    path: "thing",
    query: Schema.Struct({ id: Schema.String }),
    response: Schema.Struct({ name: Schema.String }),
    errors: [],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
  flaky: endpoint({
    name: "flaky",
    method: "GET",
    path: "flaky",
    response: Schema.Number,
    errors: [],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
  flakyPost: endpoint({
    name: "flakyPost",
    method: "POST",
    path: "flaky",
    response: Schema.Number,
    errors: [],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
  login: endpoint({
    name: "login",
    method: "POST",
    path: "login",
    body: Schema.Struct({ username: Schema.String, password: Schema.String }),
    response: Schema.Struct({ accessToken: Schema.String }),
    errors: [],
    auth: "none",
    carriesAccessToken: true,
    source: "our design",
  }),
  move: endpoint({
    name: "move",
    method: "PATCH",
    path: "device/drag_and_drop_perimetry",
    body: Schema.Struct({ movedPerimetryId: Schema.String }),
    response: Schema.Null,
    errors: ["device_revision_conflict"],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
  reset: endpoint({
    name: "reset",
    method: "PUT",
    path: "password_reset",
    body: Schema.Struct({ password: Schema.String }),
    response: Schema.Null,
    errors: [],
    auth: "reset-token",
    carriesAccessToken: false,
    source: "our design",
  }),
  dropped: endpoint({
    name: "dropped",
    method: "POST",
    path: "dropped",
    query: Schema.Struct({ times: Schema.String }),
    response: Schema.Number,
    errors: [],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
  bad: endpoint({
    name: "bad",
    method: "POST",
    path: "bad",
    response: Schema.Struct({ count: Schema.Number }),
    errors: [],
    auth: "bearer",
    carriesAccessToken: false,
    source: "our design",
  }),
} satisfies Record<string, EndpointSpec>;

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}
let server: Server;
let base: string;
const seen: Seen[] = [];
let flakyCalls = 0;
/** Requests to /api/dropped: the first `times` of a run are reset unanswered, as a closing keep-alive connection is. */
let droppedCalls = 0;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof value === "string" ? value : JSON.stringify(value));
    };
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/api/thing") return send(200, { data: { name: `thing ${url.searchParams.get("id")}` }, accessToken: "fresh" });
    if (url.pathname === "/api/flaky")
      return ++flakyCalls % 2 === 1
        ? send(500, { data: { message: "boom" }, responseType: "internal_error" })
        : send(200, { data: flakyCalls });
    if (url.pathname === "/api/dropped") {
      if (++droppedCalls <= Number(url.searchParams.get("times"))) return req.socket.resetAndDestroy();
      return send(200, { data: droppedCalls });
    }
    if (url.pathname === "/api/login") return send(200, { data: { accessToken: "tok1" }, accessToken: "tok1" });
    if (url.pathname === "/api/device/drag_and_drop_perimetry")
      return send(409, { data: { message: "stale revision", field: "from.revision" }, responseType: "device_revision_conflict" });
    if (url.pathname === "/api/password_reset") return send(401, { data: { message: "link expired" }, responseType: "token_expired" });
    if (url.pathname === "/api/bad") return send(200, { data: { count: "many" } });
    return send(404, "not json at all");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The web app's transport (global fetch, interpreted decoding) and the CLI's (node:http keep-alive, JIT-compiled). */
const transports: ReadonlyArray<[string, Pick<HttpApiOptions, "fetch" | "decoder">]> = [
  ["global fetch, interpreted decoder", {}],
  ["node:http keep-alive, compiled decoder", { fetch: nodeFetch(), decoder: compiledDecoder }],
];

const make = (transport: Pick<HttpApiOptions, "fetch" | "decoder">) => {
  const storage = memoryStorage();
  const api = createHttpApi({ apiBase: base, storage, contract: calls, ...transport }) as unknown as {
    call(name: keyof typeof calls, input: unknown): Promise<unknown>;
  } & Api;
  return { storage, api };
};

const failureOf = async (p: Promise<unknown>): Promise<ApiError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected a failure");
};

describe.each(transports)(
  "http adapter over %s (seeds §7: bearer token, queries retry once, failures thrown, accessToken stored)",
  (_name, transport) => {
    it("'All calls carry a bearer token' from session storage, builds the query, decodes data", async () => {
      const { storage, api } = make(transport);
      storage.session.set(StorageKeys.session.accessToken, "tok0");
      expect(await api.call("thing", { query: { id: "7" } })).toEqual({ name: "thing 7" });
      const last = seen.at(-1)!;
      expect(last.url).toBe("/api/thing?id=7");
      expect(last.authorization).toBe("Bearer tok0");
    });

    it("'Any response with an accessToken field stores it in session storage'", async () => {
      const { storage, api } = make(transport);
      await api.call("thing", { query: { id: "1" } });
      expect(storage.session.get(StorageKeys.session.accessToken)).toBe("fresh");
      await api.call("login", { body: { username: "u", password: "p" } });
      expect(seen.at(-1)!.authorization).toBeUndefined();
      expect(JSON.parse(seen.at(-1)!.body)).toEqual({ username: "u", password: "p" });
      expect(storage.session.get(StorageKeys.session.accessToken)).toBe("tok1");
    });

    it("'queries retry once' (GET), commands do not", async () => {
      const { api } = make(transport);
      flakyCalls = 0;
      expect(await api.call("flaky", {})).toBe(2);
      flakyCalls = 0;
      const e = await failureOf(api.call("flakyPost", {}));
      expect(e).toMatchObject({ status: 500, responseType: "internal_error", message: "boom" });
      expect(flakyCalls).toBe(1);
      expect(shouldRetryQuery("GET", new ApiError({ status: 404, responseType: "not_found", message: "" }))).toBe(false);
    });

    it("a request reset unanswered (a kept-alive connection closing) is sent once more on a new connection, whatever its method", async () => {
      const { api } = make(transport);
      droppedCalls = 0;
      expect(await api.call("dropped", { query: { times: "1" } })).toBe(2);
      droppedCalls = 0;
      const e = await failureOf(api.call("dropped", { query: { times: "2" } }));
      expect([e.status, droppedCalls]).toEqual([0, 2]);
      expect(e.message).toMatch(/Network error calling dropped: .*ECONNRESET/);
    });

    it("'Failed responses are thrown as errors' with the server's message, type and field", async () => {
      const { api } = make(transport);
      const e = await failureOf(api.call("move", { body: { movedPerimetryId: "m" } }));
      expect(e.status).toBe(409);
      expect(e.responseType).toBe("device_revision_conflict");
      expect(e.message).toBe("stale revision");
      expect(e.field).toBe("from.revision");
      expect(e.isType("device_revision_conflict")).toBe(true);
    });

    it("sends the reset token as bearer for reset-token calls", async () => {
      const { storage, api } = make(transport);
      storage.session.set(StorageKeys.session.accessToken, "session");
      const e = await failureOf(api.call("reset", { body: { password: "12345678" }, token: "reset-tok" }));
      expect(seen.at(-1)!.authorization).toBe("Bearer reset-tok");
      expect(e.status).toBe(401);
    });

    it("a malformed answer is an ApiError naming the field; a non-envelope body has no responseType", async () => {
      const { api } = make(transport);
      const e = await failureOf(api.call("bad", {}));
      expect(e.field).toBe("count");
      expect(e.responseType).toBeUndefined();
      const unknownPath = createHttpApi({
        apiBase: base,
        storage: memoryStorage(),
        ...transport,
        contract: { nothing: { ...calls.flakyPost, name: "nothing", path: "nothing" } },
      }) as unknown as { call(n: string, i: unknown): Promise<unknown> };
      const e2 = await failureOf(unknownPath.call("nothing", {}));
      expect(e2.status).toBe(404);
      expect(e2.responseType).toBeUndefined();
    });

    it("a network failure is an ApiError with status 0", async () => {
      const api = createHttpApi({
        apiBase: "http://127.0.0.1:1/api/",
        storage: memoryStorage(),
        contract: calls,
        ...transport,
      }) as unknown as {
        call(n: string, i: unknown): Promise<unknown>;
      };
      const e = await failureOf(api.call("flakyPost", {}));
      expect(e.status).toBe(0);
    });
  },
);

describe("backend configuration ('A QA preview host maps to a QA backend')", () => {
  const config = {
    apiBase: "https://api.isopter.example/api",
    rules: [{ host: "qa-preview-*.isopter.example", apiBase: "https://qa-api.isopter.example/api/" }],
  };
  it("maps a QA-preview host to the QA backend, others to the default", () => {
    expect(backendFor(config, "qa-preview-42.isopter.example")).toEqual({
      apiBase: "https://qa-api.isopter.example/api/",
      socketUrl: "wss://qa-api.isopter.example/api/ws",
    });
    expect(backendFor(config, "app.isopter.example").apiBase).toBe("https://api.isopter.example/api/");
    expect(backendFor(config).socketUrl).toBe("wss://api.isopter.example/api/ws");
    expect(socketUrlFor("http://127.0.0.1:3000/api/")).toBe("ws://127.0.0.1:3000/api/ws");
  });
});

describe("compiled decoder (effect's JIT) against the interpreter", () => {
  it("decodes contract answers to the same values and refuses broken ones with the same issues", () => {
    const page = JSON.parse(JSON.stringify(sampleMeasurementsPage())) as Array<Record<string, unknown>>;
    const schema = contract["perimetry.all"].response;
    const fast = compiledDecoder(schema),
      slow = interpretedDecoder(schema);
    // Every top-level field of a measurement and of its result, dropped or replaced by a wrong type.
    const paths = [...Object.keys(page[0]!).map((k) => [k]), ...Object.keys(page[0]!.result as object).map((k) => ["result", k])];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: page.length - 1 }),
        fc.constantFrom(...paths),
        fc.constantFrom("drop", "string", "null", "array", "keep"),
        (i, path, how) => {
          const input = structuredClone(page);
          let holder = input[i] as Record<string, unknown>;
          for (const k of path.slice(0, -1)) holder = holder[k] as Record<string, unknown>;
          const key = path.at(-1)!;
          if (how === "drop") delete holder[key];
          else if (how === "string") holder[key] = "x";
          else if (how === "null") holder[key] = null;
          else if (how === "array") holder[key] = [1];
          expect(fast(input)).toEqual(slow(input));
        },
      ),
      { numRuns: 150 },
    );
  });
});
