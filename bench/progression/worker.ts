// A worker thread of npm run bench:progression: simulates cohort eyes and reads their series with every method, or
// times the methods on series it is given. Tasks come one at a time (pool.ts); answers carry only what the bench adds
// up: the verdict bytes per eye and the series the speed run reuses.
import { parentPort } from "node:worker_threads";
import { cohortById, type FollowUp } from "../../simulator/perimetry/cohorts/cohorts.ts";
import { type CohortVisit, simulateSeries } from "../../simulator/perimetry/cohorts/simulate.ts";
import type { HensonVariability } from "../../simulator/perimetry/fos.ts";
import { type Part, timeParts, timeSeries } from "./timing.ts";
import { eyeVerdicts } from "./verdicts.ts";

export interface AccuracyTask {
  readonly kind: "accuracy";
  readonly cohort: string;
  /** Eyes [from, to) of the follow-up. */
  readonly from: number;
  readonly to: number;
  readonly followUp: FollowUp;
  readonly variability: HensonVariability;
  /** Series lengths to read; those in `always` even after every method has detected. */
  readonly lengths: readonly number[];
  readonly always: readonly number[];
  readonly nperm?: number;
  /** Keep this many first visits of each eye for the speed run (0: none). */
  readonly keepVisits: number;
}

export interface AccuracyAnswer {
  readonly cohort: string;
  readonly eyes: { readonly index: number; readonly codes: Uint8Array }[];
  readonly kept: CohortVisit[][];
  readonly simulateMs: number;
  readonly readMs: number;
}

export interface SpeedTask {
  readonly kind: "speed";
  readonly series: CohortVisit[][];
  /** Time each part instead of the whole call. */
  readonly parts: boolean;
  readonly nperm?: number;
}

/** Either the end-to-end time (ms) or, when the task asks for parts, each part's. */
export interface SpeedAnswer {
  readonly totalMs: number | null;
  readonly parts: Record<Part, number> | null;
}

const accuracy = (task: AccuracyTask): AccuracyAnswer => {
  const cohort = cohortById(task.cohort);
  const eyes: AccuracyAnswer["eyes"] = [];
  const kept: CohortVisit[][] = [];
  let simulateMs = 0,
    readMs = 0;
  for (let index = task.from; index < task.to; index++) {
    let t = performance.now();
    const series = simulateSeries(cohort, index, task.followUp, task.variability);
    simulateMs += performance.now() - t;
    t = performance.now();
    const verdicts = eyeVerdicts(series.visits, task.lengths, {
      always: task.always,
      ...(task.nperm !== undefined && { nperm: task.nperm }),
    });
    readMs += performance.now() - t;
    eyes.push({ index, codes: verdicts.codes });
    if (task.keepVisits > 0) kept.push(series.visits.slice(0, task.keepVisits));
  }
  return { cohort: task.cohort, eyes, kept, simulateMs, readMs };
};

const speed = (task: SpeedTask): SpeedAnswer =>
  task.parts ? { totalMs: null, parts: timeParts(task.series, task.nperm) } : { totalMs: timeSeries(task.series, task.nperm), parts: null };

parentPort!.on("message", (task: AccuracyTask | SpeedTask) => {
  parentPort!.postMessage(task.kind === "accuracy" ? accuracy(task) : speed(task));
});
