import { Schema } from "effect";
import {
  EyeSchema,
  PatternSchema,
  ShowtimeSchema,
  SorsLocationsSchema,
  StimuliUpdateSchema,
  StimulusSizeSchema,
  StrategySchema,
  TestTypeSchema,
} from "./enums.ts";
import { AmslerResultSchema } from "./amsler.ts";
import { MeasurementResultSchema } from "./measurement-result.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Examination: one test inside an appointment (scheduling §3, appointment variant).

/**
 * Perimetry configuration of an examination. The seed lists both sorsLocations and sorsStage; both carry the SORS
 * location count (sorsStage is the name the device and results use, sorsLocations the form's); our server keeps them equal.
 */
export const ExaminationConfigSchema = Schema.Struct({
  pattern: PatternSchema,
  strategy: StrategySchema,
  stimuliUpdate: StimuliUpdateSchema,
  stimuliSize: StimulusSizeSchema,
  stimuliShowtime: ShowtimeSchema,
  sorsLocations: SorsLocationsSchema,
  sorsStage: SorsLocationsSchema,
  playSound: Schema.Boolean,
  trackGaze: Schema.Boolean,
  audioGuide: Schema.Boolean,
});
export type ExaminationConfig = Schema.Schema.Type<typeof ExaminationConfigSchema>;

/**
 * Result by test type: perimetry gives a MeasurementResult, Amsler an AmslerResult. Acuity and colour-blindness
 * results are not described by the seeds and are not modelled yet (such examinations keep result null).
 */
export const ExaminationResultSchema = Schema.Union([MeasurementResultSchema, AmslerResultSchema]);
export type ExaminationResult = Schema.Schema.Type<typeof ExaminationResultSchema>;

/** Examination payload (scheduling §3): what examination/register and appointment calls send per test. */
export const ExaminationPayloadSchema = Schema.Struct({
  patientId: IdSchema,
  type: TestTypeSchema,
  deviceSn: DeviceSnSchema,
  eye: EyeSchema,
  notes: Schema.String,
  /** Perimetry configuration; null for tests without one (Amsler needs only an eye). */
  config: Schema.NullOr(ExaminationConfigSchema),
});
export type ExaminationPayload = Schema.Schema.Type<typeof ExaminationPayloadSchema>;

export const ExaminationSchema = Schema.Struct({
  id: IdSchema,
  patientId: IdSchema,
  type: TestTypeSchema,
  eye: EyeSchema,
  notes: Schema.String,
  /** True once the test has been taken (result present). */
  taken: Schema.Boolean,
  appointmentId: Schema.NullOr(IdSchema),
  deviceSn: Schema.NullOr(DeviceSnSchema),
  result: Schema.NullOr(ExaminationResultSchema),
  config: Schema.NullOr(ExaminationConfigSchema),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  trashedAt: Schema.NullOr(IsoDateTimeSchema),
});
export type Examination = Schema.Schema.Type<typeof ExaminationSchema>;
