import { type HomeUpload, type SessionSlot, assignSessions, dueSessions } from "./due.ts";
import type { HomeProgramme } from "./programme.ts";

// Adherence to a home programme (issue 31 §3): per patient, sessions due, done and missed, and the rate; the patients
// below a threshold. Pure: `today` (the clinic's calendar date) comes in. The server's home/adherence call reads it.
//
// Our reading of "due": a session whose window has closed (its last day is before today), or one already done
// (a patient who tests on the first day of a week has done that week's session). The session still open and not yet
// done is neither due nor missed: the patient still has time. So done + missed = due, and the rate done / due.
// A repeat (repeat.ts) is not due in this sense: it is no session of the programme's calendar, never takes a result
// from one, and leaves due, done, missed and the rate as they are; repeats are counted apart (repeatCounts).

export interface Adherence {
  readonly patientId: string;
  readonly due: number;
  readonly done: number;
  readonly missed: number;
  /** Missed sessions in which some, not all, of the programme's eyes were tested (counted in `missed`). */
  readonly partial: number;
  /** done / due, in [0, 1]; null while no session is due (no rate from no data). */
  readonly rate: number | null;
}

/** The slots filled per session index. */
function filledBySession(slots: readonly SessionSlot[]): Map<number, number> {
  const filled = new Map<number, number>();
  for (const s of slots) filled.set(s.index, (filled.get(s.index) ?? 0) + 1);
  return filled;
}

/**
 * Adherence of one programme on `today`, from the uploads in arrival order (those not due are refused by
 * `assignSessions` and count for nothing).
 */
export function adherence(p: HomeProgramme, uploads: readonly HomeUpload[], today: string): Adherence {
  const filled = filledBySession(assignSessions(p, uploads).accepted.map((a) => a.slot));
  let due = 0,
    done = 0,
    partial = 0;
  for (const s of dueSessions(p, p.start, p.end)) {
    const tested = filled.get(s.index) ?? 0;
    const complete = tested === p.eyes.length;
    if (s.to >= today && !complete) continue;
    due++;
    if (complete) done++;
    else if (tested > 0) partial++;
  }
  return { patientId: p.patientId, due, done, missed: due - done, partial, rate: due === 0 ? null : done / due };
}

/** Patients whose rate is below `rate`, lowest first (then by patient id); those with no session due yet are left out. */
export const belowThreshold = (list: readonly Adherence[], rate: number): Adherence[] =>
  list
    .filter((a) => a.rate !== null && a.rate < rate)
    .sort((a, b) => a.rate! - b.rate! || (a.patientId < b.patientId ? -1 : a.patientId > b.patientId ? 1 : 0));

/**
 * Sessions missed in a row just before `slot`'s session: those after the last session with any eye tested (or from
 * the first session) up to it. The triage's "missed sessions" flag on the result that ends the gap.
 */
export function missedBefore(slot: SessionSlot, fulfilled: readonly SessionSlot[]): number {
  if (slot.index < 0) return 0; // a repeat (repeat.ts) ends no gap: it is no session of the calendar
  let previous = -1;
  for (const s of fulfilled) if (s.index < slot.index && s.index > previous) previous = s.index;
  return slot.index - previous - 1;
}
