import { Schema } from "effect";
import { AmslerResultSchema } from "../model/amsler.ts";
import { type MeasurementResult, MeasurementResultSchema } from "../model/measurement-result.ts";

// What a headset uploads. The perimetry result is the model's MeasurementResult (every result field of the accounts
// seed §3); the Amsler result is the model's too. Acuity and colour-vision results are not described by the seeds
// (core/model keeps such examinations' result null): the two shapes below are ours, carried on the device socket only.

export const PerimetryResult = MeasurementResultSchema;
export type PerimetryResult = MeasurementResult;

export const AcuityResult = Schema.Struct({
  takenAt: Schema.String,
  /** Smallest letter size read, logMAR (0 = 20/20). */
  logMAR: Schema.Number,
  lettersCorrect: Schema.Number,
  lettersShown: Schema.Number,
});
export type AcuityResult = typeof AcuityResult.Type;

export const ColourVisionResult = Schema.Struct({
  takenAt: Schema.String,
  platesCorrect: Schema.Number,
  platesShown: Schema.Number,
});
export type ColourVisionResult = typeof ColourVisionResult.Type;

/** An examination's result tagged by its test type. */
export const ExaminationResult = Schema.Union([
  Schema.Struct({ type: Schema.Literal("perimetry"), result: MeasurementResultSchema }),
  Schema.Struct({ type: Schema.Literal("amsler"), result: AmslerResultSchema }),
  Schema.Struct({ type: Schema.Literal("acuity"), result: AcuityResult }),
  Schema.Struct({ type: Schema.Literal("color-blindness"), result: ColourVisionResult }),
]);
export type ExaminationResult = typeof ExaminationResult.Type;
