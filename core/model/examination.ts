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
import { type AmslerResult, AmslerResultSchema } from "./amsler.ts";
import { type AcuityResult, AcuityResultSchema } from "./acuity.ts";
import { type ColourVisionResult, ColourVisionResultSchema } from "./colour-vision.ts";
import { type MeasurementResult, MeasurementResultSchema } from "./measurement-result.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { OrderSchema } from "./order.ts";

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
 * Result by test type: perimetry gives a MeasurementResult, Amsler an AmslerResult, acuity an AcuityResult and colour
 * vision a ColourVisionResult (the last two are ours: the seeds name the test types but describe no result). The members
 * need no tag: each has required fields the others lack (perimetry measurementId and thresholds, Amsler answer, acuity
 * chart and eyes, colour classification and plates), so a value decodes as exactly one of them, and perimetry and Amsler
 * results decode as before. The examination's `type` says which to expect; the guards below narrow a result.
 */
export const ExaminationResultSchema = Schema.Union([
  MeasurementResultSchema,
  AmslerResultSchema,
  AcuityResultSchema,
  ColourVisionResultSchema,
]);
export type ExaminationResult = Schema.Schema.Type<typeof ExaminationResultSchema>;

export const isMeasurementResult = (r: ExaminationResult | null): r is MeasurementResult => r !== null && "thresholds" in r;
export const isAmslerResult = (r: ExaminationResult | null): r is AmslerResult => r !== null && "answer" in r;
export const isAcuityResult = (r: ExaminationResult | null): r is AcuityResult => r !== null && "eyes" in r && "chart" in r;
export const isColourVisionResult = (r: ExaminationResult | null): r is ColourVisionResult => r !== null && "classification" in r;

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
  /** The worklist step it was queued for (issue 29): travels into the result's OPV and FHIR. */
  order: Schema.optionalKey(OrderSchema),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  trashedAt: Schema.NullOr(IsoDateTimeSchema),
});
export type Examination = Schema.Schema.Type<typeof ExaminationSchema>;
