import fc from "fast-check";
import { Result, type Schema } from "effect";
import { describe, expect, it } from "vitest";
import {
  AccessTokenPayloadSchema,
  AppointmentSchema,
  ClientSettingsSchema,
  DeviceSchema,
  ExaminationSchema,
  LiveMessageSchema,
  MeasurementResultSchema,
  MeasurementSchema,
  OrganisationSchema,
  PatientSchema,
  ProgressionPointSchema,
  RunningTestSchema,
  TemplateSchema,
  UserProfileSchema,
  UserSchema,
  AmslerResultSchema,
  decode,
  encode,
} from "../../core/model/index.ts";
import * as arb from "./arbitraries.ts";

// Issue #2 part 6: "schemas round-trip for arbitrary entities". Encode, send through JSON text (the real wire), decode:
// the value must come back equal. A schema that cannot carry its own values (NaN, a lossy transformation, a key
// dropped on encode) fails here.

const cases: ReadonlyArray<[string, Schema.Codec<any, any, never, never>, fc.Arbitrary<unknown>]> = [
  ["patient", PatientSchema, arb.patient],
  ["measurement result", MeasurementResultSchema, arb.measurementResult],
  ["measurement", MeasurementSchema, arb.measurement],
  ["device", DeviceSchema, arb.device],
  ["appointment", AppointmentSchema, arb.appointment],
  ["examination", ExaminationSchema, arb.examination],
  ["amsler result", AmslerResultSchema, arb.amslerResult],
  ["running test", RunningTestSchema, arb.runningTest],
  ["template", TemplateSchema, arb.template],
  ["user", UserSchema, arb.user],
  ["user profile", UserProfileSchema, arb.userProfile],
  ["organisation", OrganisationSchema, arb.organisation],
  ["access-token payload", AccessTokenPayloadSchema, arb.accessTokenPayload],
  ["progression point", ProgressionPointSchema, arb.progressionPoint],
  ["client settings", ClientSettingsSchema, arb.clientSettings],
  ["live message", LiveMessageSchema, arb.liveMessage],
];

const viaJson = (schema: Schema.Codec<any, any, never, never>, value: unknown): unknown => {
  const encoded = encode(schema, value);
  if (Result.isFailure(encoded)) throw new Error(`encode failed: ${encoded.failure.message}`);
  const decoded = decode(schema, JSON.parse(JSON.stringify(encoded.success)));
  if (Result.isFailure(decoded)) throw new Error(`decode failed: ${decoded.failure.message}`);
  return decoded.success;
};

describe("schemas round-trip through JSON", () => {
  for (const [name, schema, arbitrary] of cases) {
    it(`${name}: decode(JSON(encode(x))) equals x`, () => {
      fc.assert(
        fc.property(arbitrary, (value) => {
          // structuredClone: fast-check builds some records with a null prototype; compare as plain objects.
          expect(viaJson(schema, value)).toStrictEqual(structuredClone(value));
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe("decoding unknown data never throws", () => {
  for (const [name, schema] of cases) {
    it(`${name}: any JSON value decodes to a Result`, () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 3 }), (input) => {
          const r = decode(schema, input);
          if (Result.isFailure(r)) expect(r.failure.message.length).toBeGreaterThan(0);
        }),
        { numRuns: 40 },
      );
    });
  }
});
