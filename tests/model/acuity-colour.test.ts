import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { decode, encode } from "../../core/model/decode.ts";
import { Eye } from "../../core/model/enums.ts";
import { AcuityResultSchema, type AcuityResult } from "../../core/model/acuity.ts";
import { ColourVisionResultSchema, type ColourVisionResult } from "../../core/model/colour-vision.ts";
import {
  ExaminationResultSchema,
  ExaminationSchema,
  isAcuityResult,
  isAmslerResult,
  isColourVisionResult,
  isMeasurementResult,
} from "../../core/model/examination.ts";
import * as arb from "./arbitraries.ts";

// The acuity and colour-vision results join the examination result union beside perimetry and Amsler. Each decodes as
// itself, perimetry and Amsler results decode as before, and bad input names the field.

const acuityEye = fc
  .record({
    eye: fc.constantFrom(Eye.Right, Eye.Left, Eye.Binocular),
    logMAR: fc.integer({ min: -30, max: 200 }).map((n) => n / 100),
    optotypesPresented: fc.nat({ max: 70 }),
  })
  .chain((e) => fc.nat({ max: e.optotypesPresented }).map((optotypesCorrect) => ({ ...e, optotypesCorrect })));
const acuityResult: fc.Arbitrary<AcuityResult> = fc.record({
  chart: fc.constantFrom("etdrs", "snellen", "tumbling-e", "landolt-c"),
  eyes: fc.array(acuityEye, { minLength: 1, maxLength: 2 }).map((e) => e as unknown as AcuityResult["eyes"]),
  takenAt: arb.isoDateTime,
  deviceSn: arb.deviceSn,
  appointmentId: fc.option(arb.id, { nil: null }),
});
const colourVisionResult: fc.Arbitrary<ColourVisionResult> = fc
  .record({
    platesPresented: fc.nat({ max: 40 }),
    classification: fc.constantFrom("normal", "protan", "deutan", "red-green", "tritan", "inconclusive"),
    takenAt: arb.isoDateTime,
    deviceSn: arb.deviceSn,
    appointmentId: fc.option(arb.id, { nil: null }),
  })
  .chain((r) => fc.nat({ max: r.platesPresented }).map((platesCorrect) => ({ ...r, platesCorrect })));

const acuityExample: AcuityResult = {
  chart: "etdrs",
  eyes: [
    { eye: Eye.Right, logMAR: 0.3, optotypesPresented: 45, optotypesCorrect: 40 },
    { eye: Eye.Left, logMAR: 0.1, optotypesPresented: 55, optotypesCorrect: 50 },
  ],
  takenAt: "2025-03-01T10:00:00.000Z",
  deviceSn: "VR-0001",
  appointmentId: "a1",
};
const colourExample: ColourVisionResult = {
  platesPresented: 19,
  platesCorrect: 9,
  classification: "deutan",
  takenAt: "2025-03-01T10:05:00.000Z",
  deviceSn: "VR-0001",
  appointmentId: "a1",
};

const ok = <T>(r: Result.Result<T, { message: string }>): T => {
  if (Result.isFailure(r)) throw new Error(r.failure.message);
  return r.success;
};

describe("examination result union", () => {
  it("decodes an acuity and a colour-vision result as themselves (worked examples)", () => {
    const a = ok(decode(ExaminationResultSchema, acuityExample));
    expect(a).toEqual(acuityExample);
    expect(isAcuityResult(a) && !isColourVisionResult(a) && !isAmslerResult(a) && !isMeasurementResult(a)).toBe(true);
    const c = ok(decode(ExaminationResultSchema, colourExample));
    expect(c).toEqual(colourExample);
    expect(isColourVisionResult(c) && !isAcuityResult(c) && !isAmslerResult(c) && !isMeasurementResult(c)).toBe(true);
  });

  it("every member round-trips through the union and keeps its own guard (property)", () => {
    const any = fc.oneof(
      arb.measurementResult.map((r) => ["perimetry", r] as const),
      arb.amslerResult.map((r) => ["amsler", r] as const),
      acuityResult.map((r) => ["acuity", r] as const),
      colourVisionResult.map((r) => ["colour", r] as const),
    );
    fc.assert(
      fc.property(any, ([kind, r]) => {
        const wire = JSON.parse(JSON.stringify(ok(encode(ExaminationResultSchema, r))));
        const back = ok(decode(ExaminationResultSchema, wire));
        expect(back).toEqual(r);
        const guards = [isMeasurementResult(back), isAmslerResult(back), isAcuityResult(back), isColourVisionResult(back)];
        expect(guards.filter(Boolean)).toHaveLength(1);
        expect(guards[["perimetry", "amsler", "acuity", "colour"].indexOf(kind)]).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("perimetry and Amsler results decode exactly as their own schemas decode them", () => {
    fc.assert(
      fc.property(fc.oneof(arb.measurementResult, arb.amslerResult), (r) => {
        const wire = JSON.parse(JSON.stringify(r));
        expect(ok(decode(ExaminationResultSchema, wire))).toEqual(wire);
      }),
      { numRuns: 100 },
    );
  });

  it("an examination carrying an acuity result decodes (the shape examination/all answers)", () => {
    const e = {
      id: "e1",
      patientId: "p1",
      type: "acuity",
      eye: Eye.Both,
      notes: "",
      taken: true,
      appointmentId: "a1",
      deviceSn: "VR-0001",
      result: acuityExample,
      config: null,
      createdAt: "2025-03-01T09:00:00.000Z",
      updatedAt: "2025-03-01T10:00:00.000Z",
      trashedAt: null,
    };
    expect(ok(decode(ExaminationSchema, e)).result).toEqual(acuityExample);
  });

  it("bad acuity and colour results fail naming the field", () => {
    const bad = (schema: typeof AcuityResultSchema | typeof ColourVisionResultSchema, v: unknown) => {
      const r = decode(schema as typeof AcuityResultSchema, v);
      if (Result.isSuccess(r)) throw new Error("decoded");
      return r.failure.field;
    };
    expect(bad(AcuityResultSchema, { ...acuityExample, eyes: [] })).toBe("eyes.0"); // the missing first eye
    expect(bad(AcuityResultSchema, { ...acuityExample, chart: "pictures" })).toBe("chart");
    expect(bad(AcuityResultSchema, { ...acuityExample, eyes: [{ ...acuityExample.eyes[0], logMAR: 3.5 }] })).toBe("eyes.0.logMAR");
    expect(bad(AcuityResultSchema, { ...acuityExample, eyes: [{ ...acuityExample.eyes[0], optotypesCorrect: 46 }] })).toBe(
      "eyes.0.optotypesCorrect",
    );
    expect(bad(ColourVisionResultSchema, { ...colourExample, platesCorrect: 20 })).toBe("platesCorrect");
    expect(bad(ColourVisionResultSchema, { ...colourExample, classification: "achromat" })).toBe("classification");
    expect(bad(ColourVisionResultSchema, { ...colourExample, platesPresented: 1.5 })).toBe("platesPresented");
  });
});
