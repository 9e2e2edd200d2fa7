import { Eye, type Pattern } from "../../model/enums.ts";

/**
 * Baseline and unreliable marks (accounts seed §4 "Baseline"):
 * "at most one per eye; toggling the same id clears it; a result 'follows baseline' if later than the baseline of
 * the same eye and pattern. Only results with a normative database can be baseline. Baseline toggle is disabled when
 * the result is not valid or the measurement is unreliable. Marking a measurement unreliable excludes it from the
 * chart; marking it reliable again also clears a baseline mark."
 * Stored client side as "baseline ids (left id, right id)" and "unreliable result ids" (accounts seed §3).
 */
export interface BaselineIds {
  readonly left: string | null;
  readonly right: string | null;
}
export interface MarkedResult {
  readonly id: string;
  readonly eye: Eye;
  readonly pattern: Pattern;
  readonly takenAt: string;
  readonly valid: boolean;
  readonly hasNormativeDatabase: boolean;
}

export const noBaselines: BaselineIds = { left: null, right: null };

const side = (eye: Eye): "left" | "right" | null => (eye === Eye.Left ? "left" : eye === Eye.Right ? "right" : null);

export type BaselineToggleState =
  | { readonly enabled: true }
  | { readonly enabled: false; readonly reason: "invalid" | "unreliable" | "no-normative-database" | "not-monocular" };

/** Whether the baseline toggle is enabled for a result, and why not. */
export function baselineToggleState(result: MarkedResult, unreliableIds: ReadonlySet<string>): BaselineToggleState {
  if (!result.valid) return { enabled: false, reason: "invalid" };
  if (unreliableIds.has(result.id)) return { enabled: false, reason: "unreliable" };
  if (!result.hasNormativeDatabase) return { enabled: false, reason: "no-normative-database" };
  if (side(result.eye) === null) return { enabled: false, reason: "not-monocular" };
  return { enabled: true };
}

/** Toggle a result as its eye's baseline: sets it (replacing the eye's previous one) or, if it already is, clears it. */
export function toggleBaseline(ids: BaselineIds, result: MarkedResult, unreliableIds: ReadonlySet<string>): BaselineIds {
  const s = side(result.eye);
  if (s === null) return ids;
  if (ids[s] === result.id) return { ...ids, [s]: null };
  if (!baselineToggleState(result, unreliableIds).enabled) return ids;
  return { ...ids, [s]: result.id };
}

/** "Follows baseline": later than the baseline of the same eye and pattern. */
export function followsBaseline(result: MarkedResult, baseline: MarkedResult | null | undefined): boolean {
  if (!baseline || baseline.id === result.id) return false;
  return baseline.eye === result.eye && baseline.pattern === result.pattern && Date.parse(result.takenAt) > Date.parse(baseline.takenAt);
}

/** Toggle the unreliable mark; marking reliable again also clears a baseline mark on that result. */
export function toggleUnreliable(
  unreliableIds: ReadonlySet<string>,
  ids: BaselineIds,
  resultId: string,
): { unreliableIds: Set<string>; baselineIds: BaselineIds } {
  const next = new Set(unreliableIds);
  let baselineIds = ids;
  if (next.has(resultId)) {
    next.delete(resultId);
    baselineIds = {
      left: ids.left === resultId ? null : ids.left,
      right: ids.right === resultId ? null : ids.right,
    };
  } else next.add(resultId);
  return { unreliableIds: next, baselineIds };
}
