import { gazeSummary } from "../analytics/gaze.ts";
import { RELIABILITY_LIMITS, reliability } from "../analytics/reliability.ts";
import type { MeasurementResult } from "../model/measurement-result.ts";

// The review queue's "unreliable" flag (issue 31 §2: "catch trials, fixation or gaze beyond limits"), part of the
// triage the server runs on each stored home result (simulator/server/review/arrival.ts).
//
// Catch trials and fixation losses: core/analytics/reliability.ts's limits, the ones the result page applies
// (false positives > 15 %, false negatives > 33 %, fixation losses > 20 %; Katz & Sommer 1989, HFA instructions).
// Gaze: the project has a fixation threshold per result (the headset's) but no limit on how much of a test may lie
// beyond it. Our choice: the fixation-loss limit, 20 %, for both the share of measured samples beyond the fixation
// threshold ("off target": the eye wandered) and the share of samples the tracker could not measure ("lost": at home,
// mostly a headset that slipped). Both count, as a fixation loss does, the part of a test the eye was not held.

export const GAZE_LIMITS = { offTarget: RELIABILITY_LIMITS.fixationLoss, lost: RELIABILITY_LIMITS.fixationLoss } as const;

export type UnreliableReason =
  | { readonly code: "false-positives" | "false-negatives" | "fixation-losses"; readonly rate: number; readonly limit: number }
  | { readonly code: "gaze-off-target" | "gaze-lost"; readonly share: number; readonly limit: number; readonly samples: number };

/** Why a result is unreliable (empty: within every limit, or nothing to judge by). */
export function unreliableReasons(result: Pick<MeasurementResult, "catchTrials" | "gazeTracking">): UnreliableReason[] {
  const r = reliability(result.catchTrials);
  const reasons: UnreliableReason[] = r.problems.map((code) =>
    code === "false-positives"
      ? { code, rate: r.falsePositiveRate!, limit: RELIABILITY_LIMITS.falsePositive }
      : code === "false-negatives"
        ? { code, rate: r.falseNegativeRate!, limit: RELIABILITY_LIMITS.falseNegative }
        : { code, rate: r.fixationLossRate!, limit: RELIABILITY_LIMITS.fixationLoss },
  );
  const gaze = result.gazeTracking;
  if (gaze && gaze.meanDistance.length > 0) {
    const g = gazeSummary(gaze.meanDistance, gaze.fixationThreshold);
    const lost = g.notMeasured / g.samples;
    if (lost > GAZE_LIMITS.lost) reasons.push({ code: "gaze-lost", share: lost, limit: GAZE_LIMITS.lost, samples: g.samples });
    if (g.measured > 0 && g.aboveThreshold !== null) {
      const off = g.aboveThreshold / g.measured;
      if (off > GAZE_LIMITS.offTarget)
        reasons.push({ code: "gaze-off-target", share: off, limit: GAZE_LIMITS.offTarget, samples: g.measured });
    }
  }
  return reasons;
}
