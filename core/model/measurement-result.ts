import { Schema } from "effect";
import { EyeSchema, PatternSchema, ShowtimeSchema, SorsLocationsSchema, StimulusSizeSchema, StrategySchema } from "./enums.ts";
import { IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { ImportedSourceSchema } from "./result-source.ts";

// A perimetry result with every field of the accounts seed §3 "Result" (the scheduling seed's result is a subset).
// Per-location arrays (thresholds, defects, normValues) follow the pattern's location order (core/analytics/patterns).
// Values that need a normative database are null when the result has none. Numbers are Finite: JSON cannot carry NaN.

/** Catch-trial tally: how many were presented and how many were answered wrongly. */
export const CatchTrialTallySchema = Schema.Struct({ errors: Schema.Finite, presentations: Schema.Finite });
export type CatchTrialTally = Schema.Schema.Type<typeof CatchTrialTallySchema>;

export const CatchTrialsSchema = Schema.Struct({
  falseNegative: CatchTrialTallySchema,
  falsePositive: CatchTrialTallySchema,
  blindSpot: CatchTrialTallySchema,
});
export type CatchTrials = Schema.Schema.Type<typeof CatchTrialsSchema>;

/** Gaze tracking: mean gaze distance per sample (-1 = could not measure) and the fixation threshold. */
export const GazeTrackingSchema = Schema.Struct({
  meanDistance: Schema.Array(Schema.Finite),
  fixationThreshold: Schema.Finite,
});
export type GazeTracking = Schema.Schema.Type<typeof GazeTrackingSchema>;

export const MeasurementResultSchema = Schema.Struct({
  measurementId: IdSchema,
  patientId: IdSchema,
  takenAt: IsoDateTimeSchema,
  eye: EyeSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
  /** SORS location count; null for non-SORS strategies. */
  sorsStage: Schema.NullOr(SorsLocationsSchema),
  stimulusSize: StimulusSizeSchema,
  /** Stimulus showtime in ms. */
  stimuliShowtime: ShowtimeSchema,
  /** Interval between stimuli in ms as run (adaptive runs report their actual mean elsewhere). */
  stimuliInterval: Schema.Finite,
  /** Mean interval in ms of an adaptive run. */
  meanUpdateTime: Schema.Finite,
  /** Number of stimuli presented. */
  presentations: Schema.Finite,
  examinationTimeInSeconds: Schema.Finite,
  /** Maximum stimulus intensity in cd/m2. */
  maxIntensity: Schema.Finite,
  /** Threshold per location in dB. */
  thresholds: Schema.Array(Schema.Finite),
  /** Defect per location in dB (norm minus threshold). */
  defects: Schema.Array(Schema.Finite),
  /** Normal value per location in dB; null without a normative database. */
  normValues: Schema.NullOr(Schema.Array(Schema.Finite)),
  meanSensitivity: Schema.Finite,
  meanDefect: Schema.NullOr(Schema.Finite),
  /** sLV. */
  squareRootLossVariance: Schema.NullOr(Schema.Finite),
  /** Visual field index in %. */
  vfi: Schema.NullOr(Schema.Finite),
  falseNegatives: Schema.Finite,
  falsePositives: Schema.Finite,
  fixationLosses: Schema.Finite,
  catchTrials: CatchTrialsSchema,
  /** Null when gaze was not tracked. */
  gazeTracking: Schema.NullOr(GazeTrackingSchema),
  /** Esterman only: rounded percentage of seen points. */
  estermanScore: Schema.NullOr(Schema.Finite),
  reliabilityScore: Schema.NullOr(Schema.Finite),
  /** Normative database version; null = no normative database (such a result cannot be baseline). */
  normativeVersion: Schema.NullOr(Schema.String),
  /** Gaze calibration: true passed, false failed, null not tested. */
  gazeCalibration: Schema.NullOr(Schema.Boolean),
  /** Background luminance in asb (fixed 31.5). */
  background: Schema.Finite,
  deviceAlias: Schema.NullOr(Schema.String),
  /** Where the result came from when it was not taken on one of the clinic's headsets (imported, issue 29). */
  source: Schema.optionalKey(ImportedSourceSchema),
});
export type MeasurementResult = Schema.Schema.Type<typeof MeasurementResultSchema>;
