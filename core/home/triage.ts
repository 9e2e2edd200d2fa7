import type { MethodId, Verdict } from "../analytics/progression/criteria/verdict.ts";
import { type EyeProgression, eyeProgression, type SeriesResult, type SetAsideReason } from "../analytics/progression/eye-progression.ts";
import type { EventStatus } from "../analytics/progression/events.ts";
import { ageAtTest, type ResultAnalysis } from "../analytics/result-analysis.ts";
import { analyseStoredResult, thresholdResult } from "../analytics/stored-result.ts";
import type { Eye } from "../model/enums.ts";
import type { MeasurementResult } from "../model/measurement-result.ts";
import { type MdOutlier, mdOutlier, type NewCluster, newClusters } from "./outlier.ts";
import { type UnreliableReason, unreliableReasons } from "./unreliable.ts";

// The review queue's flags for a new home result (issue 31 §2) and its order by need. Pure; the server runs it on
// each stored home result (simulator/server/review/arrival.ts). Each flag carries its reasons as plain data (codes and figures): the web words them.

/**
 * Our order of need, the issue's: an unreliable result first (it may need a repeat while the patient still has the
 * headset, and its other flags cannot be trusted until then), then an outlier against the patient's own series (a
 * sudden change: a new defect or a failed test), then progression (a slower change the criteria confirm over visits),
 * then missed sessions (no result to read, a call to the patient).
 */
export const FLAG_ORDER = ["unreliable", "outlier", "progression", "missed"] as const;
export type FlagKind = (typeof FLAG_ORDER)[number];

export type ProgressionReason =
  | { readonly code: "progression-event"; readonly status: Exclude<EventStatus, "none">; readonly previous: EventStatus | null }
  | { readonly code: "criterion-worsening"; readonly method: MethodId; readonly previous: Verdict | "not-applicable" };
export type FlagReason =
  | UnreliableReason
  | MdOutlier
  | NewCluster
  | ProgressionReason
  | { readonly code: "missed-sessions"; readonly sessions: number };

export interface TriageFlag {
  readonly kind: FlagKind;
  readonly reasons: FlagReason[];
}

/** A check that could not be made, and why (never a flag, nor its absence, from too little data). */
export interface CheckNotApplicable {
  readonly check: "md-outlier" | "new-cluster" | "progression";
  readonly reason: "too-few-results" | "no-previous-result" | "no-normative-database" | "pattern" | SetAsideReason;
}

export interface TriageInput {
  readonly result: MeasurementResult;
  /** The patient's earlier results; those of the result's eye and pattern, taken before it, are its series. */
  readonly series: readonly MeasurementResult[];
  readonly birthdate: string;
  /** Results the clinician marked unreliable: left out of the median, the previous result and the progression. */
  readonly unreliableIds?: ReadonlySet<string>;
  readonly baselineId?: string | null;
  /** Sessions missed in a row before this result's (adherence.ts `missedBefore`). */
  readonly missedSessions?: number;
  /** PoPLR's permutations (default 5040). */
  readonly nperm?: number;
}

export interface Triage {
  readonly resultId: string;
  readonly patientId: string;
  readonly eye: Eye;
  readonly takenAt: string;
  /** In FLAG_ORDER, one per kind raised. */
  readonly flags: TriageFlag[];
  readonly notApplicable: CheckNotApplicable[];
}

const byDate = (a: MeasurementResult, b: MeasurementResult) => Date.parse(a.takenAt) - Date.parse(b.takenAt);

export function triage(input: TriageInput): Triage {
  const { result, birthdate } = input;
  const marked = input.unreliableIds ?? new Set<string>();
  const earlier = input.series
    .filter((r) => r.eye === result.eye && r.pattern === result.pattern && r.measurementId !== result.measurementId)
    .filter((r) => Date.parse(r.takenAt) < Date.parse(result.takenAt))
    .sort(byDate);
  const reasons = new Map<FlagKind, FlagReason[]>(FLAG_ORDER.map((k) => [k, []]));
  const notApplicable: CheckNotApplicable[] = [];

  reasons.get("unreliable")!.push(...unreliableReasons(result));

  // The series the outlier checks read: threshold results not marked unreliable, analysed as the result page does.
  const analysed = (r: MeasurementResult): ResultAnalysis | null =>
    thresholdResult(r) ? analyseStoredResult(r, ageAtTest(birthdate, r.takenAt)) : null;
  const now = analysed(result);
  const kept = earlier.filter((r) => !marked.has(r.measurementId)).map(analysed);
  const withNormals = kept.filter((a) => a?.normative && a.display.md !== null);
  if (!now) notApplicable.push({ check: "md-outlier", reason: "not-threshold" }, { check: "new-cluster", reason: "not-threshold" });
  else if (!now.normative || now.display.md === null)
    notApplicable.push({ check: "md-outlier", reason: "no-normative-database" }, { check: "new-cluster", reason: "no-normative-database" });
  else {
    const md = mdOutlier(
      now.display.md!,
      withNormals.map((a) => a!.display.md!),
    );
    if (md === "too-few-results") notApplicable.push({ check: "md-outlier", reason: md });
    else if (md) reasons.get("outlier")!.push(md);
    const previous = withNormals.at(-1);
    const clusters = previous ? newClusters(result.pattern, now.normative.pdp, previous.normative!.pdp) : "no-previous-result";
    if (typeof clusters === "string") notApplicable.push({ check: "new-cluster", reason: clusters });
    else reasons.get("outlier")!.push(...clusters);
  }

  const progression = progressionReasons(input, earlier, marked);
  if (typeof progression === "string") notApplicable.push({ check: "progression", reason: progression });
  else reasons.get("progression")!.push(...progression);

  if ((input.missedSessions ?? 0) > 0) reasons.get("missed")!.push({ code: "missed-sessions", sessions: input.missedSessions! });

  return {
    resultId: result.measurementId,
    patientId: result.patientId,
    eye: result.eye,
    takenAt: result.takenAt,
    flags: FLAG_ORDER.filter((k) => reasons.get(k)!.length > 0).map((kind) => ({ kind, reasons: reasons.get(kind)! })),
    notApplicable,
  };
}

/**
 * Progression, by core's own analysis (eye-progression.ts, the one the result page shows), of the series with the new
 * result and without it: a GPA-style event (possible or likely progression) at the new result, and each criterion
 * whose verdict turns to worsening with it. The events criterion is the event itself, so it is not listed twice.
 */
function progressionReasons(
  input: TriageInput,
  earlier: readonly MeasurementResult[],
  marked: ReadonlySet<string>,
): ProgressionReason[] | CheckNotApplicable["reason"] {
  const { result } = input;
  const seriesResult = (r: MeasurementResult): SeriesResult => ({
    id: r.measurementId,
    takenAt: r.takenAt,
    eye: r.eye,
    pattern: r.pattern,
    age: ageAtTest(input.birthdate, r.takenAt),
    thresholds: r.thresholds,
    normativeVersion: r.normativeVersion,
    valid: thresholdResult(r),
    unreliable: marked.has(r.measurementId),
    strategy: r.strategy,
    source: r.source ?? null,
  });
  const options = {
    eye: result.eye,
    pattern: result.pattern,
    baselineId: input.baselineId ?? null,
    ...(input.nperm !== undefined && { nperm: input.nperm }),
  };
  const before: EyeProgression = eyeProgression(earlier.map(seriesResult), options);
  const after = eyeProgression([...earlier, result].map(seriesResult), options);
  const setAside = after.setAside.find((s) => s.id === result.measurementId);
  if (setAside) return setAside.reason;
  if (after.events === null) return "too-few-results";
  const found: ProgressionReason[] = [];
  if (after.events.status !== "none")
    found.push({ code: "progression-event", status: after.events.status, previous: before.events?.status ?? null });
  for (const m of after.criteria?.methods ?? []) {
    if (m.method === "events" || !m.applicable || m.verdict !== "worsening") continue;
    const was = before.criteria?.methods.find((b) => b.method === m.method);
    if (was?.applicable && was.verdict === "worsening") continue;
    found.push({ code: "criterion-worsening", method: m.method, previous: was?.applicable ? was.verdict : "not-applicable" });
  }
  return found;
}

/** The queue in order of need: by the first flag in FLAG_ORDER, then more flags, then the oldest result; unflagged last. */
export function orderByNeed(items: readonly Triage[]): Triage[] {
  const rank = (t: Triage) => (t.flags.length === 0 ? FLAG_ORDER.length : FLAG_ORDER.indexOf(t.flags[0]!.kind));
  return [...items].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      b.flags.length - a.flags.length ||
      Date.parse(a.takenAt) - Date.parse(b.takenAt) ||
      (a.resultId < b.resultId ? -1 : a.resultId > b.resultId ? 1 : 0),
  );
}
