import { Schema } from "effect";
import { EyeSchema, PatternSchema, ShowtimeSchema, StimuliUpdateSchema, StimulusSizeSchema, StrategySchema } from "../model/enums.ts";

// The complete perimetry result a headset uploads: every result field of the accounts seed §3 ("Result: takenAt, eye,
// pattern, strategy, sorsStage, stimulusSize, ... background, device alias") plus measurementId and patientId from the
// scheduling seed. Defined here because core/model/measurement*.ts did not exist when the protocol was written; when it
// lands the two should converge on one schema (the model owns it).

/** errors / presentations of one kind of catch trial. */
export const CatchTrialCount = Schema.Struct({ errors: Schema.Number, presentations: Schema.Number });

export const CatchTrials = Schema.Struct({
  falseNegative: CatchTrialCount,
  falsePositive: CatchTrialCount,
  blindSpot: CatchTrialCount,
});
export type CatchTrials = typeof CatchTrials.Type;

/** Gaze tracking: mean distance of the gaze from the fixation target per sample (-1 = could not measure, accounts seed). */
export const GazeTrackingResult = Schema.Struct({
  meanDistance: Schema.Array(Schema.Number),
  fixationThreshold: Schema.Number,
});
export type GazeTrackingResult = typeof GazeTrackingResult.Type;

export const PerimetryResult = Schema.Struct({
  measurementId: Schema.String,
  patientId: Schema.String,
  takenAt: Schema.String, // ISO-8601
  eye: EyeSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
  sorsStage: Schema.NullOr(Schema.Number),
  stimulusSize: StimulusSizeSchema,
  stimuliShowtime: ShowtimeSchema,
  stimuliInterval: StimuliUpdateSchema,
  /** Mean interval between presentations actually used, ms (adaptive update). */
  meanUpdateTime: Schema.Number,
  presentations: Schema.Number,
  examinationTimeInSeconds: Schema.Number,
  /** Brightest stimulus in dB (0 dB = 10000 asb). */
  maxIntensity: Schema.Number,
  /** dB per pattern location, in the pattern's order. */
  thresholds: Schema.Array(Schema.Number),
  defects: Schema.Array(Schema.Number),
  normValues: Schema.Array(Schema.Number),
  meanSensitivity: Schema.Number,
  meanDefect: Schema.Number,
  squareRootLossVariance: Schema.Number,
  vfi: Schema.NullOr(Schema.Number),
  falseNegatives: Schema.Number,
  falsePositives: Schema.Number,
  fixationLosses: Schema.Number,
  catchTrials: CatchTrials,
  gazeTracking: Schema.NullOr(GazeTrackingResult),
  estermanScore: Schema.NullOr(Schema.Number),
  reliabilityScore: Schema.NullOr(Schema.Number),
  normativeVersion: Schema.NullOr(Schema.String),
  /** passed true, failed false, not tested null (scheduling seed §4 "Gaze calibration"). */
  gazeCalibration: Schema.NullOr(Schema.Boolean),
  /** Background luminance in asb (the seeds fix 31.5). */
  background: Schema.Number,
  deviceAlias: Schema.NullOr(Schema.String),
});
export type PerimetryResult = typeof PerimetryResult.Type;

// Examination results of the appointment variant. The Amsler shape is the seeds' (answer, takenAt, deviceSn,
// appointmentId); acuity and colour-vision results are not described by the seeds: the shapes below are our choice.
export const AmslerResult = Schema.Struct({
  kind: Schema.Literal("amsler"),
  answer: Schema.Literals(["healthy", "wavy", "missing", "not-sure"]),
  takenAt: Schema.String,
  deviceSn: Schema.String,
  appointmentId: Schema.String,
});
export const AcuityResult = Schema.Struct({
  kind: Schema.Literal("acuity"),
  takenAt: Schema.String,
  /** Smallest letter size read, logMAR (0 = 20/20). */
  logMAR: Schema.Number,
  lettersCorrect: Schema.Number,
  lettersShown: Schema.Number,
});
export const ColourVisionResult = Schema.Struct({
  kind: Schema.Literal("color-blindness"),
  takenAt: Schema.String,
  platesCorrect: Schema.Number,
  platesShown: Schema.Number,
});
export const ExaminationResult = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("perimetry"), perimetry: PerimetryResult }),
  AmslerResult,
  AcuityResult,
  ColourVisionResult,
]);
export type ExaminationResult = typeof ExaminationResult.Type;
