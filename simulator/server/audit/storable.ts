import { describeError } from "../log.ts";
import type { AuditEvent } from "./event.ts";

// Every event is made storable before it is queued (issue 33 §6): one request carrying a value too long for the
// trail's indexes once had its whole batch refused, and every later event waited behind it. Values are cut to
// VALUE_MAX characters (at most 4 bytes each in UTF-8, so two indexed columns stay far below PostgreSQL's
// btree row limit of about 2.7 kB), NUL characters and unpaired surrogates (which PostgreSQL's text cannot hold) are
// replaced by U+FFFD, and the event's note names what was cut and by how much. The stored text is what is hashed.

/** Characters kept of any one value (the actor's name, an id from a query, an action). */
export const VALUE_MAX = 256;
/** Characters kept of a note (it names the cut values, or why an event was reduced). */
export const NOTE_MAX = 1_000;

const unpaired = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text PostgreSQL stores as given: no NUL, no unpaired surrogate. */
export const storableText = (s: string): string => s.replace(/\0/g, "\uFFFD").replace(unpaired, "\uFFFD");

/** The value cut to `max` characters, its end marked "…[+N]" with N the characters cut; the second answer is N. */
export const cut = (s: string, max: number): [string, number] => {
  if (s.length <= max) return [s, 0];
  // The marker's length depends on N's digits: settle it in a few rounds (N only shrinks as more is kept).
  let kept = max - 4;
  for (let round = 0; round < 3; round++) kept = max - `…[+${s.length - kept}]`.length;
  return [`${storableText(s.slice(0, kept))}…[+${s.length - kept}]`, s.length - kept];
};

const FIELDS = ["organisationId", "actorId", "actorName", "address", "action", "outcome", "patientId", "recordType", "recordId"] as const;

/** The event as it can be stored, and how many of its values were cut. */
export const storableEvent = (e: AuditEvent): { event: AuditEvent; cutValues: number } => {
  const cuts: string[] = [];
  const out: Record<string, unknown> = { ...e, at: storableText(String(e.at)).slice(0, 64) };
  for (const f of FIELDS) {
    const v = e[f];
    if (v === null || v === undefined) continue;
    const [value, removed] = cut(storableText(String(v)), VALUE_MAX);
    out[f] = value;
    if (removed > 0) cuts.push(`${f} (${String(v).length} characters)`);
  }
  const notes = [e.note ? storableText(e.note) : "", cuts.length ? `cut to ${VALUE_MAX} characters: ${cuts.join(", ")}` : ""].filter(
    Boolean,
  );
  out.note = notes.length ? cut(notes.join("; "), NOTE_MAX)[0] : null;
  return { event: out as unknown as AuditEvent, cutValues: cuts.length };
};

/** What is written when the database refuses an event itself: when, who by kind, what and how it ended, and why the
 * rest was left out. */
export const reducedEvent = (e: AuditEvent, refusal: unknown): AuditEvent => ({
  organisationId: e.organisationId && e.organisationId.length <= 64 ? e.organisationId : null,
  at: e.at,
  actorKind: e.actorKind,
  actorId: null,
  actorName: null,
  address: null,
  action: cut(e.action, 64)[0],
  outcome: cut(e.outcome, 64)[0],
  patientId: null,
  recordType: null,
  recordId: null,
  note: cut(storableText(`reduced: the database refused the full event (${describeError(refusal)})`), 300)[0],
});
