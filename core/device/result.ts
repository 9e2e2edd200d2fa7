import { Schema } from "effect";
import { AmslerResultSchema } from "../model/amsler.ts";
import { type AcuityResult as ModelAcuityResult, AcuityResultSchema } from "../model/acuity.ts";
import { type ColourVisionResult as ModelColourVisionResult, ColourVisionResultSchema } from "../model/colour-vision.ts";
import { type MeasurementResult, MeasurementResultSchema } from "../model/measurement-result.ts";

// What a headset uploads: the model's results. The perimetry result is the model's MeasurementResult (every result field
// of the accounts seed §3); the Amsler, acuity and colour-vision results are the model's too (the last two are ours: the
// seeds name those tests but describe no result), so the server stores what it decoded as it is.

export const PerimetryResult = MeasurementResultSchema;
export type PerimetryResult = MeasurementResult;

export const AcuityResult = AcuityResultSchema;
export type AcuityResult = ModelAcuityResult;

export const ColourVisionResult = ColourVisionResultSchema;
export type ColourVisionResult = ModelColourVisionResult;

/** An examination's result tagged by its test type. */
export const ExaminationResult = Schema.Union([
  Schema.Struct({ type: Schema.Literal("perimetry"), result: MeasurementResultSchema }),
  Schema.Struct({ type: Schema.Literal("amsler"), result: AmslerResultSchema }),
  Schema.Struct({ type: Schema.Literal("acuity"), result: AcuityResult }),
  Schema.Struct({ type: Schema.Literal("color-blindness"), result: ColourVisionResult }),
]);
export type ExaminationResult = typeof ExaminationResult.Type;
