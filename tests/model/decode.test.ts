import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import {
  BaselineResultIdsSchema,
  ClientSettingsSchema,
  DeviceSchema,
  MeasurementSchema,
  PatientSchema,
  StandaloneConfigSchema,
  ageOn,
  decode,
  decodeJson,
  isTokenExpired,
} from "../../core/model/index.ts";
import * as arb from "./arbitraries.ts";

// "Decoding unknown data yields a typed error naming the field, never a crash." (issue #2 part 2)

const sample = <T>(a: fc.Arbitrary<T>): T => fc.sample(a, { numRuns: 1, seed: 7 })[0]!;
const failureOf = <A, E>(r: Result.Result<A, E>): E => {
  if (Result.isSuccess(r)) throw new Error("expected a failure");
  return r.failure;
};

describe("decode errors name the offending field", () => {
  it("a nested field of a measurement result: result.catchTrials.blindSpot.errors", () => {
    const m = sample(arb.measurement.filter((x) => x.result !== null));
    const bad = { ...m, result: { ...m.result, catchTrials: { ...m.result!.catchTrials, blindSpot: { errors: "x", presentations: 3 } } } };
    const e = failureOf(decode(MeasurementSchema, bad));
    expect(e._tag).toBe("DecodeError");
    expect(e.field).toBe("result.catchTrials.blindSpot.errors");
    expect(e.message).toContain("result.catchTrials.blindSpot.errors");
  });

  it("an array element by index: perimetries.0.eye", () => {
    const d = sample(arb.device);
    const m = sample(arb.measurement);
    const e = failureOf(decode(DeviceSchema, { ...d, perimetries: [{ ...m, eye: 9 }] }));
    expect(e.field).toBe("perimetries.0.eye");
  });

  it("a missing key is named", () => {
    const { birthdate: _b, ...p } = sample(arb.patient);
    const e = failureOf(decode(PatientSchema, p));
    expect(e.field).toBe("birthdate");
    expect(e.message).toMatch(/birthdate: Missing key/);
  });

  it("every offending field is listed, not only the first", () => {
    const p = sample(arb.patient);
    const e = failureOf(decode(PatientSchema, { ...p, gender: "female", lang: "xx" }));
    expect(e.issues.map((i) => i.path).sort()).toEqual(["gender", "lang"]);
  });

  it("NaN is refused (JSON cannot carry it)", () => {
    const d = sample(arb.device);
    expect(failureOf(decode(DeviceSchema, { ...d, revision: Number.NaN })).field).toBe("revision");
  });

  it("bad JSON text is a DecodeError, not a throw", () => {
    const e = failureOf(decodeJson(PatientSchema, "{not json"));
    expect(e.field).toBe("");
    expect(e.message).toMatch(/^Not JSON/);
  });

  it("garbage of any shape never throws", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        expect(() => decode(DeviceSchema, input)).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });
});

describe("entity rules from the seeds", () => {
  it('device status: "an unknown value falls back to not connected" (scheduling §4)', () => {
    const d = sample(arb.device);
    const r = decode(DeviceSchema, { ...d, status: "exploded" });
    expect(Result.isSuccess(r) && r.success.status).toBe("notconnected");
  });

  it('client settings: "progressionChartExpanded (default true)", "pattern (default analysis pattern 24-2)"', () => {
    const r = decode(ClientSettingsSchema, {});
    expect(Result.isSuccess(r) && r.success).toEqual({
      analysisExpanded: false,
      progressionChartExpanded: true,
      historyExpanded: false,
      pattern: 1, // Pattern.P24_2
    });
  });

  it('stand-alone config: "measurement config without notes and deviceSn" (scheduling §7 device/standalone)', () => {
    expect(Object.keys(StandaloneConfigSchema.fields).sort()).toEqual(
      [
        "patientId",
        "eye",
        "pattern",
        "strategy",
        "sorsStage",
        "stimuliUpdate",
        "stimuliShowtime",
        "stimuliSize",
        "displayName",
        "playSound",
        "trackGaze",
        "audioGuide",
        "tutorial",
      ].sort(),
    );
  });

  it('baseline ids: "Baseline is stored as a pair (left id, right id)"', () => {
    expect(Result.isSuccess(decode(BaselineResultIdsSchema, ["a", null]))).toBe(true);
    expect(failureOf(decode(BaselineResultIdsSchema, ["a"])).field).toBe("1");
  });

  it('patient age: "birthdate with age" is whole years, counting the birthday itself', () => {
    expect(ageOn("1980-06-15", "2026-06-14")).toBe(45);
    expect(ageOn("1980-06-15", "2026-06-15")).toBe(46);
    expect(ageOn("2000-02-29", "2001-02-28")).toBe(0);
    expect(ageOn("2027-01-01", "2026-01-01")).toBe(0);
  });

  it('access token: "carries an expiry time" (exp in seconds)', () => {
    const p = { role: "user" as const, username: "u", email: "e", exp: 1_000 };
    expect(isTokenExpired(p, 999_999)).toBe(false);
    expect(isTokenExpired(p, 1_000_000)).toBe(true);
  });
});
