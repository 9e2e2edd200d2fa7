import { Schema } from "effect";
import { IdSchema } from "./ids.ts";

// A running test's live progress (scheduling §3 "Running test", accounts §3): the thresholds answered so far,
// which index changed last, and how many locations are tested out of all.

/** One stimulus location's current threshold. answerTime in ms; dBValue null while not yet answered. */
export const ThresholdPointSchema = Schema.Struct({
  index: Schema.Finite,
  dBValue: Schema.NullOr(Schema.Finite),
  answerTime: Schema.NullOr(Schema.Finite),
});
export type ThresholdPoint = Schema.Schema.Type<typeof ThresholdPointSchema>;

export const RunningTestSchema = Schema.Struct({
  /** Set in the measurement variant. */
  perimetryId: Schema.NullOr(IdSchema),
  /** Set in the appointment variant. */
  appointmentId: Schema.NullOr(IdSchema),
  /** The examination running inside the appointment (appointment variant). */
  examinationId: Schema.optionalKey(Schema.NullOr(IdSchema)),
  nTested: Schema.Finite,
  nLocations: Schema.Finite,
  /** Gaze calibration outcome so far: true passed, false failed, null not tested. */
  gazeTracking: Schema.NullOr(Schema.Boolean),
  thresholds: Schema.Array(ThresholdPointSchema),
  /** The threshold index updated by the latest event (drawn red if unanswered); null before the first. */
  lastUpdatedIndex: Schema.NullOr(Schema.Finite),
});
export type RunningTest = Schema.Schema.Type<typeof RunningTestSchema>;
