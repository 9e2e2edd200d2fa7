// A result's visit seen with both eyes (issue 30): the fellow eye's result of the same day among the patient's results
// and the binocular integrated field of the two (core/analytics/binocular.ts), for the result page and its print.

import { byEye, integratedField, sameVisitFellow, type IntegratedFieldOutcome } from "../../core/analytics/binocular.ts";
import { Eye } from "../../core/model/enums.ts";
import type { WithResult } from "./result-model.ts";

export interface BinocularVisit {
  /** The visit's right- and left-eye results; null when the fellow eye was not tested that day. */
  readonly right: WithResult | null;
  readonly left: WithResult | null;
  readonly field: IntegratedFieldOutcome;
}

/**
 * The visit of `current` with both eyes, or null for a result that is not one eye's (Esterman is binocular already).
 * Without a fellow result that day the field is "not applicable: not the same day".
 */
export function binocularVisit(current: WithResult, results: readonly WithResult[], timeZone: string): BinocularVisit | null {
  if (current.result.eye !== Eye.Right && current.result.eye !== Eye.Left) return null;
  const of = (m: WithResult) => ({ m, eye: m.result.eye, pattern: m.result.pattern, takenAt: m.result.takenAt });
  const fellow = sameVisitFellow(results.map(of), of(current), timeZone)?.m ?? null;
  if (!fellow) {
    const side = current.result.eye === Eye.Right ? { right: current, left: null } : { right: null, left: current };
    return { ...side, field: { applicable: false, reason: "not-same-day" } };
  }
  const { right, left } = byEye(current, fellow);
  return { right, left, field: integratedField(right.result, left.result, timeZone) };
}
