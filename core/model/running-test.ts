import { Schema } from "effect";
import { IdSchema } from "./ids.ts";

// A running test's live progress (scheduling §3 "Running test", accounts §3): the thresholds answered so far,
// which index changed last, and how many locations are tested out of all.

/** One stimulus location's current threshold. answerTime in ms; dBValue null while not yet answered. */
export const ThresholdPointSchema = Schema.Struct({
  index: Schema.Number,
  dBValue: Schema.NullOr(Schema.Number),
  answerTime: Schema.NullOr(Schema.Number),
});
export type ThresholdPoint = Schema.Schema.Type<typeof ThresholdPointSchema>;

export const RunningTestSchema = Schema.Struct({
  /** Set in the measurement variant. */
  perimetryId: Schema.NullOr(IdSchema),
  /** Set in the appointment variant. */
  appointmentId: Schema.NullOr(IdSchema),
  /** The examination running inside the appointment (appointment variant). */
  examinationId: Schema.optionalKey(Schema.NullOr(IdSchema)),
  nTested: Schema.Number,
  nLocations: Schema.Number,
  /** Gaze calibration outcome so far: true passed, false failed, null not tested. */
  gazeTracking: Schema.NullOr(Schema.Boolean),
  thresholds: Schema.Array(ThresholdPointSchema),
  /** The threshold index updated by the latest event (drawn red if unanswered); null before the first. */
  lastUpdatedIndex: Schema.NullOr(Schema.Number),
});
export type RunningTest = Schema.Schema.Type<typeof RunningTestSchema>;
