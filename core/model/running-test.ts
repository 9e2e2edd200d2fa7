import { Schema } from "effect";
import { IdSchema } from "./ids.ts";

// A running test's live progress (scheduling §3 "Running test", accounts §3): the thresholds answered so far,
// which index changed last, and how many locations are tested out of all. The headset sends it in these words
// (core/device/protocol.ts `progress`) and the server passes it on to the browsers as it is (core/model/live-data.ts).

/** One stimulus location's current threshold: dBValue null while the location is presented but not finished,
 * answerTime (ms, the last response at the location) null while nothing was answered there. */
export const ThresholdPointSchema = Schema.Struct({
  index: Schema.Int,
  dBValue: Schema.NullOr(Schema.Finite),
  answerTime: Schema.NullOr(Schema.Finite),
});
export type ThresholdPoint = Schema.Schema.Type<typeof ThresholdPointSchema>;

export const RunningTestSchema = Schema.Struct({
  /** Set in the measurement variant (a stand-alone run's standaloneId). */
  perimetryId: Schema.NullOr(IdSchema),
  /** Set in the appointment variant. */
  appointmentId: Schema.NullOr(IdSchema),
  /** The examination running inside the appointment (appointment variant). */
  examinationId: Schema.optionalKey(Schema.NullOr(IdSchema)),
  nTested: Schema.Int,
  nLocations: Schema.Int,
  /** Gaze calibration outcome so far: true passed, false failed, null not tested. */
  gazeTracking: Schema.NullOr(Schema.Boolean),
  /** Thresholds known so far (the headset sends all of them each time, so a dropped frame loses nothing). */
  thresholds: Schema.Array(ThresholdPointSchema),
  /** The threshold index updated by the latest event (drawn red if unanswered); null before the first. */
  lastUpdatedIndex: Schema.NullOr(Schema.Int),
});
export type RunningTest = Schema.Schema.Type<typeof RunningTestSchema>;

/** Which test a headset stopped (scheduling §8 "Clicker disconnected | test stopped message"), in the running test's
 * words: perimetryId for a measurement (a stand-alone run's standaloneId), appointmentId and examinationId for an
 * appointment's examination; all null when no test was under way. */
export const StoppedTestSchema = Schema.Struct({
  perimetryId: Schema.NullOr(IdSchema),
  appointmentId: Schema.NullOr(IdSchema),
  examinationId: Schema.NullOr(IdSchema),
});
export type StoppedTest = Schema.Schema.Type<typeof StoppedTestSchema>;
