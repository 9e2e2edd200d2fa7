import { Schema } from "effect";
import { EyeSchema, PatternSchema, StrategySchema } from "./enums.ts";
import { IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Progression point (accounts §3): one result on the mean-defect progression chart.
export const ProgressionPointSchema = Schema.Struct({
  measurementId: IdSchema,
  patientId: IdSchema,
  takenAt: IsoDateTimeSchema,
  meanDefect: Schema.Finite,
  eye: EyeSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
});
export type ProgressionPoint = Schema.Schema.Type<typeof ProgressionPointSchema>;
