import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  ErrorTypes,
  contract,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeSuccess,
  errorStatus,
  failure,
} from "../../core/model/contract/index.ts";
import * as arb from "./arbitraries.ts";

const ok = <A, E>(r: Result.Result<A, E>): A => {
  if (Result.isFailure(r)) throw new Error(`expected success: ${JSON.stringify(r.failure)}`);
  return r.success;
};
const err = <A, E>(r: Result.Result<A, E>): E => {
  if (Result.isSuccess(r)) throw new Error("expected failure");
  return r.failure;
};
const parseQuery = (url: string): Record<string, string> => Object.fromEntries(new URL(url, "http://x").searchParams.entries());

describe("request: client encodes, server decodes", () => {
  it("patient.get: GET /api/patient?id=..", () => {
    const w = ok(encodeRequest(contract["patient.get"], { query: { id: "p 1" } }));
    expect(w.method).toBe("GET");
    expect(w.url).toBe("/api/patient?id=p%201");
    expect(w.body).toBeUndefined();
    expect(ok(decodeRequest(contract["patient.get"], { query: parseQuery(w.url), body: undefined }))).toEqual({ query: { id: "p 1" } });
  });

  it('examination/all "taken={json}" travels as "true"/"false" and decodes to a boolean', () => {
    const spec = contract["examination.all"];
    const w = ok(encodeRequest(spec, { query: { patientId: "p", taken: false, examinationType: "amsler" } }));
    expect(w.url).toBe("/api/examination/all?patientId=p&taken=false&examinationType=amsler");
    expect(ok(decodeRequest(spec, { query: parseQuery(w.url), body: undefined })).query).toEqual({
      patientId: "p",
      taken: false,
      examinationType: "amsler",
    });
    expect(err(decodeRequest(spec, { query: { taken: "maybe" }, body: undefined })).field).toBe("query.taken");
  });

  it("bodies round-trip: any measurement register body", () => {
    const spec = contract["perimetry.register"];
    fc.assert(
      fc.property(arb.measurementConfig, arb.id, arb.deviceSn, (config, patientId, deviceSn) => {
        const body = { ...config, patientId, deviceSn };
        const w = ok(encodeRequest(spec, { body }));
        expect(ok(decodeRequest(spec, { query: {}, body: JSON.parse(w.body!) })).body).toEqual(body);
      }),
      { numRuns: 30 },
    );
  });

  it("any JSON query and body decode to a Result for every endpoint, never a throw", () => {
    const specs = Object.values(contract);
    fc.assert(
      fc.property(
        fc.constantFrom(...specs),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
        fc.jsonValue({ maxDepth: 3 }),
        (spec, query, body) => {
          const r = decodeRequest(spec, { query, body });
          if (Result.isFailure(r)) expect(r.failure.field).toMatch(/^(query|body)/);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a bad body names the field under body.", () => {
    const e = err(
      decodeRequest(contract["patient.search"], { query: {}, body: { filter: { name: "a", birthdate: null }, page: "1", quantity: 10 } }),
    );
    expect(e.field).toBe("body.page");
  });

  it('device/standalone: "or null to switch off"', () => {
    const w = ok(encodeRequest(contract["device.standalone"], { query: { deviceSn: "VR1" }, body: null }));
    expect(w.body).toBe("null");
    expect(ok(decodeRequest(contract["device.standalone"], { query: { deviceSn: "VR1" }, body: null })).body).toBeNull();
  });

  it("reset-token and invitation-token calls pass their token for the bearer header", () => {
    const w = ok(encodeRequest(contract["passwordReset.confirm"], { body: { email: "a@b", token: "t", password: "p" }, token: "t" }));
    expect(w.token).toBe("t");
    expect(ok(encodeRequest(contract["patient.all"], {})).token).toBeUndefined();
  });
});

describe("the envelope { data, responseType?, accessToken? }", () => {
  it("success: HTTP 200, data decoded by the call's response schema, accessToken passed on", () => {
    fc.assert(
      fc.property(arb.patient, (p) => {
        const env = ok(encodeSuccess(contract["patient.get"], p, { accessToken: "tok" }));
        const answer = ok(decodeResponse(contract["patient.get"], 200, JSON.parse(JSON.stringify(env))));
        expect(answer.data).toEqual(structuredClone(p));
        expect(answer.accessToken).toBe("tok");
      }),
      { numRuns: 20 },
    );
  });

  it('"success is status 200 or responseType device_standalone_unset"', () => {
    const env = ok(encodeSuccess(contract["device.standalone"], null, { responseType: "device_standalone_unset" }));
    expect(env).toEqual({ data: null, responseType: "device_standalone_unset" });
    expect(ok(decodeResponse(contract["device.standalone"], 200, env)).responseType).toBe("device_standalone_unset");
  });

  it('failure: "On conflict (HTTP 409 or error type device_revision_conflict)" becomes an ApiError with both', () => {
    const f = failure("device_revision_conflict", "stale revision");
    expect(f.status).toBe(409);
    const e = err(decodeResponse(contract["device.dragAndDropPerimetry"], f.status, f.body));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(409);
    expect(e.responseType).toBe("device_revision_conflict");
    expect(e.isType("device_revision_conflict")).toBe(true);
    expect(e.message).toBe("stale revision");
  });

  it('"failure body data.message shown": validation errors carry message and field', () => {
    const f = failure("validation_error", "Expected string", "body.name");
    expect(f).toEqual({
      status: 400,
      body: { data: { message: "Expected string", field: "body.name" }, responseType: "validation_error" },
    });
    const e = err(decodeResponse(contract["patient.register"], 400, f.body));
    expect(e.field).toBe("body.name");
  });

  it("an answer that breaks the contract is an ApiError naming the field", () => {
    const e = err(decodeResponse(contract["patient.search"], 200, { data: { entries: [], remaining: "x", page: 0 } }));
    expect(e.responseType).toBe("invalid_response");
    expect(e.field).toBe("data.remaining");
  });

  it("a non-envelope error body still gives an ApiError with the status", () => {
    const e = err(decodeResponse(contract["patient.all"], 502, "Bad gateway"));
    expect(e.status).toBe(502);
    expect(e.responseType).toBeUndefined();
  });

  it("every error type maps to a 4xx/5xx status; every listed error of every call is a known type", () => {
    for (const t of ErrorTypes) expect(errorStatus[t]).toBeGreaterThanOrEqual(400);
    for (const e of Object.values(contract)) for (const t of e.errors) expect(ErrorTypes).toContain(t);
  });
});
