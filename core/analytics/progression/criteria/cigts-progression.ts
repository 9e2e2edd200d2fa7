import { cigtsScore } from "../../stages/cigts-score.ts";
import { baselineChange, type BaselineChangeDetail } from "./baseline-change.ts";
import type { CriteriaSeries } from "./series.ts";
import { type MethodOutcome, notApplicable } from "./verdict.ts";

/**
 * CIGTS visual field progression: Musch DC, Lichter PR, Guire KE, Standardi CL, Ophthalmology 1999;106:653-662 (the
 * Collaborative Initial Glaucoma Treatment Study's design): a CIGTS score (0-20, stages/cigts-score.ts) 3 or more above
 * the mean of the two baseline tests, confirmed on 3 consecutive tests. As vfprogression (Elze et al.) reads it, the
 * three are the series' last three, and a score 3 or more below the baseline on each is an improvement; a series that
 * went both ways on single tests is stable (baseline-change.ts). At least 5 visits: 2 baseline tests and 3 to confirm.
 * Defined where the score is: the 52 non-blind-spot 24-2 locations (24-2 and 30-2).
 */
export const CIGTS_PROGRESSION_THRESHOLD = 3;
export const CIGTS_CONFIRMATIONS = 3;
export const CIGTS_MIN_VISITS = 2 + CIGTS_CONFIRMATIONS;

export type CigtsProgressionDetail = BaselineChangeDetail;

export function cigtsProgression(series: CriteriaSeries): MethodOutcome<CigtsProgressionDetail> {
  const method = "cigts";
  const scores: number[] = [];
  for (const tdp of series.analysis.visits.tdp) {
    const score = cigtsScore(tdp, series.pattern);
    if (!score.applicable) return notApplicable(method, score.reason);
    scores.push(score.score);
  }
  if (scores.length < CIGTS_MIN_VISITS) return notApplicable(method, "too-few-visits");
  const { verdict, detail } = baselineChange(scores, true, CIGTS_PROGRESSION_THRESHOLD, CIGTS_CONFIRMATIONS);
  return { method, applicable: true, verdict, detail };
}
