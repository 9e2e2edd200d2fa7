// The speed aim (issue 30): every criterion on 10,000 eyes of 10 visits in 10 s. `timeSeries` times seriesCriteria,
// the call the product makes, end to end; `timeParts` the same work piece by piece, as criteria/index.ts does it: the
// shared analysis (TD, PD, global indices, regressions, events), PoPLR's permutations on TD (which only PoPLR reads)
// and each criterion on that analysis.
import { performance } from "node:perf_hooks";
import {
  CRITERIA,
  type CriteriaSeries,
  METHOD_IDS,
  type MethodId,
  POPLR_MIN_VISITS,
  seriesCriteria,
} from "../../core/analytics/progression/criteria/index.ts";
import { getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { poplr } from "../../core/analytics/progression/poplr.ts";
import { analyseSeries } from "../../core/analytics/series-analysis.ts";
import type { CohortVisit } from "../../simulator/perimetry/cohorts/simulate.ts";
import { COHORT_PATTERN } from "../../simulator/perimetry/cohorts/true-field.ts";

export const SHARED = "shared analysis";
export const PERMUTATIONS = "PoPLR permutations";
export type Part = MethodId | typeof SHARED | typeof PERMUTATIONS;
export const PARTS: readonly Part[] = [SHARED, PERMUTATIONS, ...METHOD_IDS];

/** ms of seriesCriteria over every series. */
export const timeSeries = (series: readonly (readonly CohortVisit[])[], nperm?: number): number => {
  const t0 = performance.now();
  for (const visits of series) seriesCriteria(COHORT_PATTERN, visits, nperm === undefined ? {} : { nperm });
  return performance.now() - t0;
};

/** ms per part over every series (the parts add up to about timeSeries). */
export const timeParts = (series: readonly (readonly CohortVisit[])[], nperm?: number): Record<Part, number> => {
  const ms = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const nv = getNormativeDatabase(COHORT_PATTERN, null)!;
  for (const visits of series) {
    let t = performance.now();
    const analysis = analyseSeries(COHORT_PATTERN, visits, { normativeVersion: null, poplr: false });
    let now = performance.now();
    ms[SHARED] += now - t;
    t = now;
    const td = analysis.visits!.td;
    const permuted =
      visits.length >= POPLR_MIN_VISITS ? poplr(analysis.years, td, { ...(nperm !== undefined && { nperm }), seed: 1 }) : null;
    now = performance.now();
    ms[PERMUTATIONS] += now - t;
    const s: CriteriaSeries = {
      pattern: COHORT_PATTERN,
      nv,
      analysis: { ...analysis, poplr: { s: null, td: permuted, pd: null }, visits: analysis.visits! },
    };
    for (const id of METHOD_IDS) {
      t = performance.now();
      CRITERIA[id](s);
      ms[id] += performance.now() - t;
    }
  }
  return ms;
};
