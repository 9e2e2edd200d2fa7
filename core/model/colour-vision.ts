import { Schema } from "effect";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Colour-vision result of an examination (test type "color-blindness"). The seeds name the test type but describe no
// result: this shape is ours, after pseudo-isochromatic plate tests (Ishihara for red-green, HRR-style plates for tritan).
// The classification follows from the plate answers by core/rules/acuity-colour.ts `classifyColourVision`.

/**
 * normal; a red-green deficiency, protan or deutan when the classification plates tell which, red-green when they do
 * not; tritan (blue-yellow); inconclusive when the answers allow no reading (demonstration plate missed, results between
 * the pass and fail marks, or both red-green and tritan plates failed).
 */
export const ColourVisionClassification = {
  Normal: "normal",
  Protan: "protan",
  Deutan: "deutan",
  RedGreen: "red-green",
  Tritan: "tritan",
  Inconclusive: "inconclusive",
} as const;
export const ColourVisionClassificationSchema = Schema.Literals(
  Object.values(ColourVisionClassification) as ["normal", "protan", "deutan", "red-green", "tritan", "inconclusive"],
);
export type ColourVisionClassification = Schema.Schema.Type<typeof ColourVisionClassificationSchema>;

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));

export const ColourVisionResultSchema = Schema.Struct({
  /** Plates shown. */
  platesPresented: Count,
  /** Plates read as a person with normal colour vision reads them. */
  platesCorrect: Count,
  classification: ColourVisionClassificationSchema,
  takenAt: IsoDateTimeSchema,
  deviceSn: DeviceSnSchema,
  appointmentId: Schema.NullOr(IdSchema),
}).check(
  Schema.makeFilter((r) =>
    r.platesCorrect <= r.platesPresented ? undefined : { path: ["platesCorrect"], issue: "Expected no more plates correct than presented" },
  ),
);
export type ColourVisionResult = Schema.Schema.Type<typeof ColourVisionResultSchema>;
