import { type Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { PerimetryTest } from "../engine.ts";
import { specFor } from "../evaluate.ts";
import type { HensonVariability } from "../fos.ts";
import { createRng } from "../random.ts";
import type { Cohort, FollowUp } from "./cohorts.ts";
import { type CohortEye, cohortEye, patientAtVisit, visitYears } from "./true-field.ts";

// A visit is one simulated test of the eye with a real strategy (DS, the Octopus Dynamic strategy, procedures/
// dynamic.ts) run by the simulated observer, step by step as a headset runs it; its thresholds are what the
// progression criteria read. DS because its test-retest variability rises with damage as published ones do (the
// 4-2 full threshold's stays at 1.6-1.7 dB from 30 down to 25 dB, below the published 2.24-2.36 dB there, and hardly
// moves with the observer's slope; npm run bench:progression prints both strategies).

export const COHORT_STRATEGY = Strategy.DS;

/** One visit as the series criteria take it (core/analytics/series-analysis.ts SeriesVisit). */
export interface CohortVisit {
  /** ISO date of the test. */
  readonly date: string;
  readonly age: number;
  /** Measured thresholds in pattern order (-1 where not seen at 0 dB). */
  readonly thresholds: number[];
}

export interface CohortSeries {
  readonly cohort: string;
  readonly eye: CohortEye;
  readonly visits: CohortVisit[];
  /** The true field at each visit (dB per location; below 0 where not even 0 dB is seen). */
  readonly truth: number[][];
}

/** The first visit's date; later ones every `intervalYears` of 365.25 days. */
const FIRST_VISIT_MS = Date.UTC(2020, 0, 6);

export const visitDate = (years: number): string =>
  new Date(FIRST_VISIT_MS + Math.round(years * 365.25) * 86_400_000).toISOString().slice(0, 10);

/** One 24-2 test of the patient (DS unless told), run to its end. */
export const runVisitTest = (
  eye: Eye,
  patient: ReturnType<typeof patientAtVisit>,
  seed: string,
  strategy: Strategy = COHORT_STRATEGY,
): number[] => {
  const spec = { ...specFor(Pattern.P24_2, strategy), eye, trackGaze: false };
  const test = new PerimetryTest(spec, patient, createRng(seed));
  while (!test.done) test.step();
  return [...test.outcome().thresholds];
};

/** The whole follow-up of cohort eye `index`: seeded, so the same arguments give the same series. */
export const simulateSeries = (
  cohort: Cohort,
  index: number,
  followUp: FollowUp,
  variability: HensonVariability,
  visits = followUp.visits,
): CohortSeries => {
  const eye = cohortEye(followUp, index);
  const out: CohortVisit[] = [];
  const truth: number[][] = [];
  for (let k = 0; k < visits; k++) {
    const years = visitYears(followUp, k);
    const patient = patientAtVisit(cohort, eye, followUp, k, variability);
    truth.push([...patient.trueThresholds]);
    out.push({
      date: visitDate(years),
      age: Math.round((eye.ageAtBaseline + years) * 100) / 100,
      thresholds: runVisitTest(eye.eye, patient, `${eye.seed}/test/${k}`),
    });
  }
  return { cohort: cohort.id, eye, visits: out, truth };
};
