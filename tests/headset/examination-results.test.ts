import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { decode } from "../../core/model/decode.ts";
import { Eye } from "../../core/model/enums.ts";
import { AcuityResultSchema } from "../../core/model/acuity.ts";
import { ColourVisionResultSchema } from "../../core/model/colour-vision.ts";
import { decodeHeadsetMessage, frame, readHeadsetFrame } from "../../core/device/protocol.ts";
import { createRng } from "../../simulator/perimetry/random.ts";
import type { ProfileName } from "../../simulator/perimetry/profiles.ts";
import { acuityExamination, colourExamination, colourTypeFor, trueLogMAR } from "../../simulator/headset/examinations.ts";

// The virtual headset's acuity and colour-vision examinations: drawn from the simulated patient, repeatable from the
// seed, shaped as the model's results, and carried by the device protocol's examinationResult message.

const patients = (n: number) => Array.from({ length: n }, (_, i) => `patient-${i}`);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const stamp = { takenAt: "2025-03-01T10:00:00.000Z", deviceSn: "VR-0001", appointmentId: "a1" };

describe("simulated acuity", () => {
  it("the same patient and seed give the same result; another seed may differ but the patient stays the same person", () => {
    const p = { patientId: "patient-7", profile: "early" as ProfileName, age: 66 };
    expect(acuityExamination(Eye.Both, p, createRng("s1"))).toEqual(acuityExamination(Eye.Both, p, createRng("s1")));
    expect(trueLogMAR("patient-7", Eye.Left, 66, "early")).toBe(trueLogMAR("patient-7", Eye.Left, 66, "early"));
  });

  it("eye Both reads right then left; each eye's logMAR is the letter-by-letter score of the letters read", () => {
    const r = acuityExamination(Eye.Both, { patientId: "patient-3", profile: "healthy", age: 60 }, createRng("x"));
    expect(r.eyes.map((e) => e.eye)).toEqual([Eye.Right, Eye.Left]);
    for (const e of r.eyes) {
      expect(e.optotypesCorrect).toBeLessThanOrEqual(e.optotypesPresented);
      expect(e.optotypesPresented % 5).toBe(0);
      expect(e.logMAR).toBeCloseTo(1.1 - 0.02 * e.optotypesCorrect, 9);
    }
    expect(Result.isSuccess(decode(AcuityResultSchema, { ...r, ...stamp }))).toBe(true);
  });

  it("the measured acuity follows the true one (within a line on average) and worsens with age and advanced disease", () => {
    const measure = (profile: ProfileName, age: number) =>
      patients(150).map((id, i) => ({
        truth: trueLogMAR(id, Eye.Right, age, profile),
        measured: acuityExamination(Eye.Right, { patientId: id, profile, age }, createRng(`seed-${i}`)).eyes[0].logMAR,
      }));
    const young = measure("healthy", 35);
    const old = measure("healthy", 80);
    const advanced = measure("advanced", 80);
    expect(Math.abs(mean(young.map((x) => x.measured - x.truth)))).toBeLessThan(0.1);
    expect(mean(young.map((x) => x.measured))).toBeLessThan(0.05); // about 6/6 or better
    expect(mean(old.map((x) => x.measured))).toBeGreaterThan(mean(young.map((x) => x.measured)) + 0.15);
    expect(mean(advanced.map((x) => x.measured))).toBeGreaterThan(mean(old.map((x) => x.measured)) + 0.2);
  });
});

describe("simulated colour vision", () => {
  it("some patients are colour-deficient: about 4 % red-green, and acquired tritan losses in advanced glaucoma", () => {
    const healthy = patients(2000).map((id) => colourTypeFor(id, "healthy"));
    const redGreen = healthy.filter((t) => t === "protan" || t === "deutan").length / healthy.length;
    expect(redGreen).toBeGreaterThan(0.02);
    expect(redGreen).toBeLessThan(0.07);
    expect(healthy).not.toContain("tritan");
    const advanced = patients(2000).map((id) => colourTypeFor(id, "advanced"));
    expect(advanced.filter((t) => t === "tritan").length / advanced.length).toBeGreaterThan(0.25);
  });

  it("classifies most patients as their type, and the result decodes as the model's", () => {
    const classified = (profile: ProfileName) =>
      patients(600).map((id, i) => ({
        type: colourTypeFor(id, profile),
        result: colourExamination({ patientId: id, profile, age: 60 }, createRng(`c-${i}`)),
      }));
    const all = [...classified("healthy"), ...classified("advanced")];
    for (const { result } of all.slice(0, 50))
      expect(Result.isSuccess(decode(ColourVisionResultSchema, { ...result, ...stamp }))).toBe(true);
    const agree = (type: string, ok: (c: string) => boolean) => {
      const of = all.filter((x) => x.type === type);
      expect(of.length).toBeGreaterThan(5);
      return of.filter((x) => ok(x.result.classification)).length / of.length;
    };
    expect(agree("normal", (c) => c === "normal")).toBeGreaterThan(0.9);
    expect(agree("deutan", (c) => c === "deutan" || c === "red-green")).toBeGreaterThan(0.8);
    expect(agree("tritan", (c) => c === "tritan")).toBeGreaterThan(0.7);
  });

  it("repeatable from the seed", () => {
    const p = { patientId: "patient-9", profile: "moderate" as ProfileName, age: 70 };
    expect(colourExamination(p, createRng("q"))).toEqual(colourExamination(p, createRng("q")));
  });
});

describe("device protocol: examinationResult", () => {
  const acuity = { chart: "etdrs", eyes: [{ eye: Eye.Right, logMAR: 0.2, optotypesPresented: 45, optotypesCorrect: 40 }], ...stamp };
  const colour = { platesPresented: 19, platesCorrect: 18, classification: "normal", ...stamp };
  const message = (outcome: unknown) => ({ type: "examinationResult", appointmentId: "a1", examinationId: "e1", outcome });

  it("carries the model's acuity and colour-vision results through a frame", () => {
    for (const outcome of [
      { type: "acuity", result: acuity },
      { type: "color-blindness", result: colour },
    ]) {
      const m = readHeadsetFrame(frame(message(outcome) as never));
      expect(Result.isSuccess(m) && m.success).toEqual(message(outcome));
    }
  });

  it("refuses a result that is not its test type's, naming the field", () => {
    const field = (outcome: unknown) => {
      const r = decodeHeadsetMessage(message(outcome));
      return Result.isFailure(r) ? r.failure.field : "decoded";
    };
    expect(field({ type: "acuity", result: { ...acuity, eyes: [{ ...acuity.eyes[0], optotypesCorrect: 50 }] } })).toMatch(
      /^outcome.*optotypesCorrect$/,
    );
    expect(field({ type: "color-blindness", result: { ...colour, classification: "achromat" } })).toMatch(/^outcome.*classification$/);
    expect(field({ type: "acuity", result: colour })).not.toBe("decoded");
  });
});
