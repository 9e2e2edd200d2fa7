import type { EventStatus } from "../events.ts";
import type { CriteriaSeries } from "./series.ts";
import { type MethodOutcome, notApplicable } from "./verdict.ts";

/**
 * The GPA-style event analysis (progression/events.ts: PD against the baseline pair, "3 or more points on 2 consecutive
 * tests = possible progression, on 3 = likely progression", HFA II-i user manual, GPA chapter) as a verdict. Our mapping:
 * "likely progression" is worsening; "possible progression" and none are stable, the status kept in the detail (the
 * device itself calls possible progression a warning to confirm). Events flag loss only: never improving.
 * Our choice: at least 5 visits (the baseline pair and the 3 follow-ups "likely" needs); with fewer, "stable" would
 * be a verdict the method could not have reversed.
 */
export const EVENTS_MIN_VISITS = 5;

export interface EventsDetail {
  /** The status at the last visit. */
  readonly status: EventStatus;
  /** Pattern indices deteriorated on the last visit and the one before; on the last three. */
  readonly twice: number[];
  readonly thrice: number[];
}

export function eventsCriterion(series: CriteriaSeries): MethodOutcome<EventsDetail> {
  const method = "events";
  const events = series.analysis.events;
  if (!events) return notApplicable(method, "no-normative-database");
  if (series.analysis.nvisits < EVENTS_MIN_VISITS) return notApplicable(method, "too-few-visits");
  const detail = { status: events.current, twice: [...events.repeated2.at(-1)!], thrice: [...events.repeated3.at(-1)!] };
  return { method, applicable: true, verdict: events.current === "likely progression" ? "worsening" : "stable", detail };
}
