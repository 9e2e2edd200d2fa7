import type { Eye } from "../model/enums.ts";
import { addDays, formatIsoDate, parseIsoDate } from "../rules/calendar-date.ts";
import { type HomeUpload, type Session, type SessionMatch, type SessionSlot, clinicDate, sessionFor } from "./due.ts";
import type { HomeProgramme } from "./programme.ts";

// A repeat (issue 31 §2: the clinician "can ... ask for a repeat"): a one-off session of the programme's test, added
// beside the regular ones. Pure: dates come in.
//
// Our choices:
// - Its window: from the clinic's day the repeat was asked for, REPEAT_DAYS days (both ends included), cut at the
//   programme's last day. A week is as long as a weekly session gives the patient, and short enough that the repeat
//   still reads the eye as the flagged result found it.
// - Its eyes: the eye of the result it repeats (a result item is one eye's test).
// - Its slot: a repeat is its own slot, keyed by a negative session index (-1 for the programme's first repeat, -2 for
//   the second, ...). Regular sessions count from 0, so home_results' key (programme, session index, eye) stores a
//   repeat's result at most once per eye without a new key, and every reader of regular sessions (adherence, missed
//   sessions, the missed-in-a-row count) passes repeats by, as they are no session of the programme's calendar.
// - Which slot an arriving result fills: the regular session first; only a result its regular slot no longer takes
//   (already done) fills a pending repeat whose window holds its date (the earliest such repeat first). So a repeat
//   never takes a result from the programme's calendar: adherence (due, done, missed, the rate) is the same with or
//   without repeats, and repeats are counted apart (`repeatState`).

/** Days a repeat stays open, the day it was asked for included (ours). */
export const REPEAT_DAYS = 7;

/** One repeat asked for: its number (1 first, per programme), the eyes to test and its window (clinic dates). */
export interface Repeat {
  readonly number: number;
  readonly eyes: readonly Eye[];
  readonly from: string;
  readonly to: string;
}

/** The slot index of repeat `number` (negative: never a regular session's). */
export const repeatIndex = (number: number): number => -number;

/** Whether a slot is a repeat's rather than a regular session's. */
export const isRepeatSlot = (slot: Pick<SessionSlot, "index">): boolean => slot.index < 0;

/** A repeat's window asked for on the clinic's `today`; null when the programme's last day has passed. */
export function repeatWindow(p: HomeProgramme, today: string): { from: string; to: string } | null {
  const from = today < p.start ? p.start : today;
  if (from > p.end) return null;
  const day = parseIsoDate(from);
  if (!day) return null;
  const last = formatIsoDate(addDays(day, REPEAT_DAYS - 1));
  // biome-ignore lint/complexity/useMathMinMax: ISO date strings order as text
  return { from, to: last < p.end ? last : p.end };
}

/** The repeat's window as a session (its slot index negative). */
export const repeatSession = (r: Repeat): Session => ({ index: repeatIndex(r.number), from: r.from, to: r.to });

const filled = (r: Repeat, eye: Eye, fulfilled: readonly SessionSlot[]) =>
  fulfilled.some((s) => s.index === repeatIndex(r.number) && s.eye === eye);

/** The repeat a result of `eye` taken on the clinic's `date` fills: open on that date, of that eye, not yet filled. */
export const repeatFor = (repeats: readonly Repeat[], date: string, eye: Eye, fulfilled: readonly SessionSlot[]): Repeat | null =>
  [...repeats]
    .sort((a, b) => a.number - b.number)
    .find((r) => r.from <= date && date <= r.to && r.eyes.includes(eye) && !filled(r, eye, fulfilled)) ?? null;

/** What the server knows as a result arrives: its clock's instant and the programme's repeats. */
export interface Arrival {
  readonly now: string;
  readonly repeats: readonly Repeat[];
}

/**
 * The slot an arriving result fills: `sessionFor`'s regular session (the future refused by the server's `now`), else,
 * when that session's slot is done already, a pending repeat open on the result's clinic date.
 */
export function slotFor(p: HomeProgramme, upload: HomeUpload, fulfilled: readonly SessionSlot[], arrival: Arrival): SessionMatch {
  const regular = sessionFor(p, upload, fulfilled, arrival.now);
  if (regular.due || regular.reason !== "already-done") return regular;
  const repeat = repeatFor(arrival.repeats, clinicDate(p, upload.takenAt), upload.eye, fulfilled);
  return repeat ? { due: true, session: repeatSession(repeat), eye: upload.eye } : regular;
}

export type RepeatState = "pending" | "done" | "missed";

/** Done when each of its eyes is tested; missed when its window closed (before the clinic's today) without; else pending. */
export function repeatState(r: Repeat, fulfilled: readonly SessionSlot[], today: string): RepeatState {
  if (r.eyes.every((eye) => filled(r, eye, fulfilled))) return "done";
  return r.to < today ? "missed" : "pending";
}

/** Repeats counted apart from adherence (they are no session of the programme's calendar). */
export interface RepeatCounts {
  readonly pending: number;
  readonly done: number;
  readonly missed: number;
}

export function repeatCounts(repeats: readonly Repeat[], fulfilled: readonly SessionSlot[], today: string): RepeatCounts {
  const n = { pending: 0, done: 0, missed: 0 };
  for (const r of repeats) n[repeatState(r, fulfilled, today)]++;
  return n;
}
