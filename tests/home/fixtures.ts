// Home results and programmes for core/home's tests: a result is the eye's age-normal field (the default normative
// database) plus a chosen total deviation, so each test holds MD, PD and the catch trials exactly where it wants them.
import { getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { normalSensitivity } from "../../core/analytics/pointwise.ts";
import { ageAtTest } from "../../core/analytics/result-analysis.ts";
import type { HomeProgramme } from "../../core/home/programme.ts";
import { Eye, Pattern, Showtime, StimulusSize, Strategy } from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";

export const BIRTHDATE = "1960-03-15";
export const PATIENT = "patient-1";
const geometry = getPattern(Pattern.P24_2);
const nv = getNormativeDatabase(Pattern.P24_2, null)!;

/** 24-2 indices of three upper-hemifield neighbours at y = 9: x = -9, -3, 3 (one grid step apart). */
export const UPPER_TRIPLE: readonly number[] = [-9, -3, 3].map((x) => geometry.points.findIndex((p) => p.x === x && p.y === 9));
/** Three upper-hemifield locations far apart ((-21, 9), (3, 21), (21, 3)): no two are neighbours. */
export const SCATTERED: readonly number[] = [
  geometry.points.findIndex((p) => p.x === -21 && p.y === 9),
  geometry.points.findIndex((p) => p.x === 3 && p.y === 21),
  geometry.points.findIndex((p) => p.x === 21 && p.y === 3),
];

export interface ResultSpec {
  readonly id: string;
  readonly takenAt: string;
  readonly eye?: Eye;
  /** Total deviation everywhere, dB (a uniform shift: MD moves by it, PD does not). */
  readonly shift?: number;
  /** Locations depressed by `depth` dB on top of the shift. */
  readonly depressed?: readonly number[];
  readonly depth?: number;
  /** Catch trials: false positives, false negatives and blind-spot (fixation) errors of 20 each. */
  readonly fp?: number;
  readonly fn?: number;
  readonly fl?: number;
  readonly gaze?: MeasurementResult["gazeTracking"];
  readonly strategy?: Strategy;
}

export function homeResult(spec: ResultSpec): MeasurementResult {
  const normal = normalSensitivity(nv, ageAtTest(BIRTHDATE, spec.takenAt));
  const depressed = new Set(spec.depressed ?? []);
  const thresholds = geometry.points.map((_, i) =>
    normal[i] === null || normal[i] === undefined ? 0 : normal[i]! + (spec.shift ?? 0) - (depressed.has(i) ? (spec.depth ?? 15) : 0),
  );
  const tally = (errors: number) => ({ errors, presentations: 20 });
  return {
    measurementId: spec.id,
    patientId: PATIENT,
    takenAt: spec.takenAt,
    eye: spec.eye ?? Eye.Right,
    pattern: Pattern.P24_2,
    strategy: spec.strategy ?? Strategy.DS,
    sorsStage: null,
    stimulusSize: StimulusSize.III,
    stimuliShowtime: Showtime.Ms200,
    stimuliInterval: 1500,
    meanUpdateTime: 1500,
    presentations: 300,
    examinationTimeInSeconds: 330,
    maxIntensity: 3183,
    thresholds,
    defects: thresholds.map(() => 0),
    normValues: null,
    meanSensitivity: 28,
    meanDefect: null,
    squareRootLossVariance: null,
    vfi: null,
    falseNegatives: spec.fn ?? 0,
    falsePositives: spec.fp ?? 0,
    fixationLosses: spec.fl ?? 0,
    catchTrials: { falsePositive: tally(spec.fp ?? 0), falseNegative: tally(spec.fn ?? 0), blindSpot: tally(spec.fl ?? 0) },
    gazeTracking: spec.gaze ?? null,
    estermanScore: null,
    reliabilityScore: null,
    normativeVersion: null,
    gazeCalibration: true,
    background: 31.5,
    deviceAlias: null,
  };
}

/** A weekly 24-2 DS programme for both eyes, Thursday 1 January to Saturday 31 January 2026, in Berlin. */
export const weekly: HomeProgramme = {
  patientId: PATIENT,
  deviceSn: "VR-HOME-1",
  eyes: [Eye.Right, Eye.Left],
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  frequency: { kind: "weekly" },
  start: "2026-01-01",
  end: "2026-01-31",
  reminderTime: "18:30",
  timeZone: "Europe/Berlin",
};

/** An upload of the programme's test (at noon UTC on a day unless a time is given). */
export const upload = (takenAt: string, eye: Eye = Eye.Right) => ({
  takenAt: takenAt.length === 10 ? `${takenAt}T12:00:00.000Z` : takenAt,
  eye,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
});
