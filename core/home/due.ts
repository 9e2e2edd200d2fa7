import { clinicTime, instantOfWallClock } from "../model/clinic-time.ts";
import type { Eye, Pattern, Strategy } from "../model/enums.ts";
import { type CalendarDate, addDays, formatIsoDate, parseIsoDate } from "../rules/calendar-date.ts";
import type { HomeProgramme } from "./programme.ts";

// Which home sessions fall due, and which session an arriving result fulfils (issue 31). Pure: dates come in.
// The server checks home uploads with `sessionFor` (simulator/server/home/uploads.ts).
//
// Our choice of windows: session k opens on its due day and stays open until the next one opens, so the windows
// tile the programme without gap or overlap and a patient may test on any day of them. Daily: the day. Weekly: the
// programme's own week (from the start's weekday, not the ISO week: a programme starting on a Thursday runs Thursday
// to Wednesday). Every N days: N days. Monthly: from the start's day of the month to the day before it a month later,
// counted from the start each time (31 January, 28 February, 31 March: no drift into the 28th). The last window ends
// with the programme's end day. A session is done when a result for each of the programme's eyes arrives within it.

/** One session: its number (0 first) and its window, calendar dates in the clinic's zone, both days included. */
export interface Session {
  readonly index: number;
  readonly from: string;
  readonly to: string;
}

/** One eye's test of one session: what a result fulfils. */
export interface SessionSlot {
  readonly index: number;
  readonly eye: Eye;
}

const DAY_MS = 86_400_000;
const dayNumber = (d: CalendarDate): number => Date.UTC(d.year, d.month - 1, d.day) / DAY_MS;

const addMonths = (d: CalendarDate, months: number): CalendarDate => {
  const first = new Date(Date.UTC(d.year, d.month - 1 + months, 1));
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth() + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day: Math.min(d.day, last) };
};

const periodDays = (p: HomeProgramme): number | null =>
  p.frequency.kind === "daily" ? 1 : p.frequency.kind === "weekly" ? 7 : p.frequency.kind === "every" ? p.frequency.days : null;

const dateOf = (iso: string): CalendarDate => {
  const d = parseIsoDate(iso);
  if (!d) throw new Error(`not a calendar date: ${iso}`);
  return d;
};

/** The due day of session k (it may lie past the programme's end: then there is no session k). */
function opening(p: HomeProgramme, k: number): CalendarDate {
  const start = dateOf(p.start);
  const days = periodDays(p);
  return days === null ? addMonths(start, k) : addDays(start, k * days);
}

/** Session k, or null when its due day lies past the end (or k < 0). */
export function sessionAt(p: HomeProgramme, k: number): Session | null {
  if (k < 0) return null;
  const from = formatIsoDate(opening(p, k));
  if (from > p.end) return null;
  const next = formatIsoDate(addDays(opening(p, k + 1), -1));
  // biome-ignore lint/complexity/useMathMinMax: ISO date strings order as text; Math.min would read them as NaN
  return { index: k, from, to: next < p.end ? next : p.end };
}

/** The session whose window holds the calendar date, or null outside the programme. */
export function sessionOn(p: HomeProgramme, date: string): Session | null {
  if (date < p.start || date > p.end) return null;
  const start = dateOf(p.start);
  const d = dateOf(date);
  const days = periodDays(p);
  // Monthly: the month count is exact or one too many (the start's day not yet reached in the date's month).
  let k = days === null ? (d.year - start.year) * 12 + (d.month - start.month) : Math.floor((dayNumber(d) - dayNumber(start)) / days);
  if (formatIsoDate(opening(p, k)) > date) k--;
  return sessionAt(p, k);
}

/** The sessions due between two dates: those whose due day lies in [from, to], in order. */
export function dueSessions(p: HomeProgramme, from: string, to: string): Session[] {
  if (from > p.end || to < p.start) return [];
  const first = from <= p.start ? 0 : sessionOn(p, from)!.index;
  const out: Session[] = [];
  for (let k = first; ; k++) {
    const s = sessionAt(p, k);
    if (s === null || s.from > to) return out;
    if (s.from >= from) out.push(s);
  }
}

/**
 * When a session's reminder goes out: its first day at the reminder time on the clinic's clock, as an instant (in the
 * hour a clock skips, as if the change had not happened yet: clinic-time.ts's reading).
 */
export const reminderInstant = (p: HomeProgramme, session: Session): string =>
  instantOfWallClock(`${session.from}T${p.reminderTime}:00.000`, p.timeZone);

/** What arrives from the headset: when and what it tested (a stored result's fields). */
export interface HomeUpload {
  readonly takenAt: string;
  readonly eye: Eye;
  readonly pattern: Pattern;
  readonly strategy: Strategy;
}

/** Why a result fulfils no session: "a result for a session that was not due" is refused (issue 31, Bad input). */
export type NotDueReason = "invalid-time" | "in-the-future" | "before-start" | "after-end" | "other-eye" | "other-test" | "already-done";

export type SessionMatch =
  | { readonly due: true; readonly session: Session; readonly eye: Eye }
  | { readonly due: false; readonly reason: NotDueReason };

/** The clinic's calendar date of an instant. */
export const clinicDate = (p: HomeProgramme, instant: string): string => clinicTime(instant, p.timeZone).date;

/**
 * How far a result's takenAt may lie past the server's now (ours): a headset's clock running up to 5 minutes fast is
 * skew, not a result from the future. Beyond it the result is refused "in-the-future": a session not yet open cannot
 * be fulfilled, and a clock set ahead would otherwise fill the weeks to come.
 */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * The session slot an arriving result fulfils, given the slots already fulfilled; else why it was not due. A second
 * result for a done slot is not due (the duplicate of an uploaded result is recognised before, by its id). `now` is
 * the server's clock as the result arrives (the server always passes it); without it (re-reading results stored
 * already, as adherence does) the future is not checked again.
 */
export function sessionFor(p: HomeProgramme, upload: HomeUpload, fulfilled: readonly SessionSlot[], now?: string): SessionMatch {
  if (upload.pattern !== p.pattern || upload.strategy !== p.strategy) return { due: false, reason: "other-test" };
  if (!p.eyes.includes(upload.eye)) return { due: false, reason: "other-eye" };
  const at = Date.parse(upload.takenAt);
  if (Number.isNaN(at)) return { due: false, reason: "invalid-time" };
  if (now !== undefined && at > Date.parse(now) + FUTURE_TOLERANCE_MS) return { due: false, reason: "in-the-future" };
  const date = clinicDate(p, upload.takenAt);
  if (date < p.start) return { due: false, reason: "before-start" };
  const session = sessionOn(p, date);
  if (session === null) return { due: false, reason: "after-end" };
  if (fulfilled.some((s) => s.index === session.index && s.eye === upload.eye)) return { due: false, reason: "already-done" };
  return { due: true, session, eye: upload.eye };
}

export interface Assignment<U extends HomeUpload> {
  readonly accepted: Array<{ readonly upload: U; readonly slot: SessionSlot }>;
  readonly refused: Array<{ readonly upload: U; readonly reason: NotDueReason }>;
}

/** Uploads in arrival order through `sessionFor`: each accepted one fills one slot, each slot once. */
export function assignSessions<U extends HomeUpload>(p: HomeProgramme, uploads: readonly U[]): Assignment<U> {
  const accepted: Array<{ upload: U; slot: SessionSlot }> = [];
  const refused: Array<{ upload: U; reason: NotDueReason }> = [];
  const slots: SessionSlot[] = [];
  for (const upload of uploads) {
    const match = sessionFor(p, upload, slots);
    if (!match.due) refused.push({ upload, reason: match.reason });
    else {
      const slot = { index: match.session.index, eye: match.eye };
      slots.push(slot);
      accepted.push({ upload, slot });
    }
  }
  return { accepted, refused };
}
