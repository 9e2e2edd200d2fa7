import { Schema } from "effect";
import {
  EyeSchema,
  PatternSchema,
  ShowtimeSchema,
  SorsLocationsSchema,
  StimuliUpdateSchema,
  StimulusSizeSchema,
  StrategySchema,
} from "./enums.ts";

/**
 * What the measurement form edits (scheduling seed §3 "Measurement (perimetry)", the user-set fields).
 * patientId and deviceSn are null until chosen (save is disabled without a patient, §5).
 * The rules over these fields live in core/rules (allowed options, dependencies, limits).
 */
export const MeasurementConfigSchema = Schema.Struct({
  patientId: Schema.NullOr(Schema.String),
  deviceSn: Schema.NullOr(Schema.String),
  displayName: Schema.String,
  eye: EyeSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
  stimuliUpdate: StimuliUpdateSchema,
  stimuliSize: StimulusSizeSchema,
  stimuliShowtime: ShowtimeSchema,
  sorsStage: SorsLocationsSchema,
  playSound: Schema.Boolean,
  trackGaze: Schema.Boolean,
  audioGuide: Schema.Boolean,
  tutorial: Schema.Boolean,
  notes: Schema.String,
});

export type MeasurementConfig = Schema.Schema.Type<typeof MeasurementConfigSchema>;
