import fc from "fast-check";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { Examination, ExaminationResult } from "../../../core/model/examination.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import { examination as anyExamination, measurement as anyMeasurement } from "../../model/arbitraries.ts";

// Measurements and examinations of one patient for the overview's tests: random valid records (the model's
// arbitraries, fixed seed) with the fields that matter set by hand.

export const patientId = "p1";
const base = <T>(a: fc.Arbitrary<T>, seed: number): T => fc.sample(a, { seed, numRuns: 1 })[0]!;

export function measurement(
  id: string,
  takenAt: string | null,
  over: { eye?: Eye; meanDefect?: number | null; trashedAt?: string | null } = {},
): Measurement {
  const m = base(anyMeasurement, id.length * 7 + 1);
  const result =
    takenAt === null
      ? null
      : {
          ...base(
            anyMeasurement.filter((x) => x.result !== null),
            3,
          ).result!,
          measurementId: id,
          patientId,
          takenAt,
          eye: over.eye ?? Eye.Right,
          pattern: Pattern.P24_2,
          strategy: Strategy.SORS,
          meanDefect: over.meanDefect === undefined ? -3.456 : over.meanDefect,
        };
  return { ...m, id, patientId, eye: over.eye ?? Eye.Right, trashedAt: over.trashedAt ?? null, result };
}

export function examination(
  id: string,
  type: Examination["type"],
  eye: Eye,
  result: ExaminationResult | null,
  over: Partial<Examination> = {},
): Examination {
  return {
    ...base(anyExamination, 11),
    id,
    patientId,
    type,
    eye,
    result,
    taken: result !== null,
    trashedAt: null,
    config: null,
    appointmentId: "a1",
    updatedAt: result?.takenAt ?? "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

const stamp = (takenAt: string) => ({ takenAt, deviceSn: "VR-0001", appointmentId: "a1" });
export const amsler = (takenAt: string, answer: "healthy" | "wavy" | "missing" | "not-sure" = "wavy"): ExaminationResult => ({
  answer,
  ...stamp(takenAt),
});
export const acuity = (takenAt: string, eyes: Array<[Eye, number]>): ExaminationResult => ({
  chart: "etdrs",
  eyes: eyes.map(([eye, logMAR]) => ({
    eye,
    logMAR,
    optotypesPresented: 50,
    optotypesCorrect: Math.round((1.1 - logMAR) / 0.02),
  })) as never,
  ...stamp(takenAt),
});
export const colour = (
  takenAt: string,
  platesCorrect: number,
  classification: "normal" | "protan" | "deutan" | "red-green" | "tritan" | "inconclusive",
): ExaminationResult => ({
  platesPresented: 19,
  platesCorrect,
  classification,
  ...stamp(takenAt),
});
