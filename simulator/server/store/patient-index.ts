import type { Patient } from "../../../core/model/patient.ts";
import type { Database, Queryable, Row } from "../db/database.ts";
import { patientColumns, toPatient } from "./patients.ts";

// The patient search (scheduling §10 "search by name or ID, birthdate filter, paged") served from memory (issue 18).
// Each process keeps, per organisation it has searched, the active patients in the database's name order
// (lower(name), id) with their search text. Before every search it reads the organisation's version and the patients
// changed since the version it holds (migration 012's change log) and applies them, in one snapshot: so a search
// on any process sees every write committed before it was asked, and costs one small query (on PGlite none while the
// organisation's patients are unchanged) plus a scan of short strings in memory. The name order is the database's own collation: a changed patient's place is counted by the
// database among the patients that did not change, never compared in JavaScript.

export interface PatientSearch {
  readonly name: string | null;
  readonly birthdate: string | null;
  /** 1-based page. */
  readonly page: number;
  readonly quantity: number;
}

export interface PatientSearchPage {
  readonly entries: Patient[];
  readonly remaining: number;
  readonly page: number;
}

/**
 * How far past a page the search counts matches: `remaining` is exact when fewer follow, else this many ("at least").
 * Paging only asks whether remaining > 0 (scheduling §10), so counting every match of a short text over a large
 * clinic would be work nobody reads.
 */
export const REMAINING_COUNTED_UP_TO = 100;
/** More changes than this since the last look: reading the organisation again is cheaper than placing each one. */
const CHANGES_PLACED_AT_MOST = 200;
/** An organisation nobody searched for this long leaves memory; change-log rows older than this are swept. */
const IDLE_MS = 15 * 60_000;
const SWEEP_EVERY_MS = 60_000;

interface Entry {
  readonly patient: Patient;
  /** Lower-case name and unique id (the patients.search column). */
  readonly text: string;
}

interface OrganisationIndex {
  readonly version: number;
  /** Active patients in name order. */
  readonly entries: ReadonlyArray<Entry>;
  /** The texts joined, made at the first search that needs them. */
  joined?: { readonly text: string; readonly starts: Int32Array };
}

interface Slot {
  index?: OrganisationIndex;
  /** The latest refresh, started or waiting for the one before it. */
  last?: Promise<OrganisationIndex>;
  /** A refresh not started yet: a search arriving now joins it, as it will still read everything committed so far. */
  waiting?: Promise<OrganisationIndex>;
  usedAt: number;
}

const toEntry = (r: Row): Entry => ({ patient: Object.freeze(toPatient(r)), text: (r.search as string | null) ?? "" });

/** The organisation's version: how many statements have changed its patients. */
const readVersion = async (q: Queryable, org: string): Promise<number> =>
  Number((await q.query<{ version: string }>("select version from patient_versions where organisation_id = $1", [org]))[0]?.version ?? 0);

/** The organisation's active patients in name order, and the version they are at (read first: never newer). */
const readWhole = async (q: Queryable, org: string): Promise<OrganisationIndex> => {
  const version = await readVersion(q, org);
  // As one JSON text: PGlite decodes result rows field by field in JavaScript, several seconds for 100,000 patients.
  const rows = await q.query<{ patients: string | null }>(
    `select json_agg(p order by lower(p.name), p.id)::text as patients
       from (select ${patientColumns}, search from patients where organisation_id = $1 and trashed_at is null) p`,
    [org],
  );
  return { version, entries: (JSON.parse(rows[0]?.patients ?? "[]") as Row[]).map(toEntry) };
};

interface ChangeLog {
  readonly current: number;
  readonly versions: ReadonlySet<number>;
  readonly changed: ReadonlyArray<string>;
}

/** The organisation's version and the patients changed after `since` (one query: usually one row, nothing changed). */
const readChanges = async (q: Queryable, org: string, since: number): Promise<ChangeLog> => {
  const rows = await q.query<{ current: string; version: string | null; patient_id: string | null }>(
    `select v.version as current, c.version, c.patient_id
       from patient_versions v left join patient_changes c on c.organisation_id = v.organisation_id and c.version > $2
      where v.organisation_id = $1 order by c.version`,
    [org, since],
  );
  return {
    current: Number(rows[0]?.current ?? 0),
    versions: new Set(rows.flatMap((r) => (r.version === null ? [] : [Number(r.version)]))),
    changed: [...new Set(rows.flatMap((r) => (r.patient_id === null ? [] : [r.patient_id])))],
  };
};

/** The index brought to the snapshot's version: changed patients taken out, the active ones put back in place. */
const refresh = async (q: Queryable, org: string, index: OrganisationIndex | undefined): Promise<OrganisationIndex> => {
  if (!index) return readWhole(q, org);
  const { current, versions, changed } = await readChanges(q, org, index.version);
  if (current === index.version) return index;
  // A gap (the log was swept past this index's version) or a bulk change: read the whole organisation again.
  const complete = versions.size === current - index.version && versions.has(index.version + 1) && versions.has(current);
  if (!complete || changed.length > CHANGES_PLACED_AT_MOST) return readWhole(q, org);
  // Each changed active patient with the number of unchanged active patients before it in name order.
  const placed = await q.query(
    `select ${patientColumns}, search,
            (select count(*) from patients o
              where o.organisation_id = $1 and o.trashed_at is null and o.id <> all($2::text[])
                and (lower(o.name), o.id) < (lower(p.name), p.id))::int as before
       from patients p where organisation_id = $1 and id = any($2::text[]) and trashed_at is null
      order by lower(name), id`,
    [org, changed],
  );
  const gone = new Set(changed);
  const kept = index.entries.filter((e) => !gone.has(e.patient.id));
  return {
    version: current,
    entries: placeAmong(
      kept,
      placed.map((row) => ({ before: row.before as number, item: toEntry(row) })),
    ),
  };
};

/**
 * `kept` in its order with each placed item after the `before` first of them (`placed` in that order too). Copied
 * element by element: spreading an organisation's patients into one call's arguments overflows the stack from about
 * 100,000 of them.
 */
export const placeAmong = <T>(kept: ReadonlyArray<T>, placed: ReadonlyArray<{ readonly before: number; readonly item: T }>): T[] => {
  const out: T[] = [];
  let from = 0;
  for (const { before, item } of placed) {
    for (; from < before; from++) out.push(kept[from]!);
    out.push(item);
  }
  for (; from < kept.length; from++) out.push(kept[from]!);
  return out;
};

/** Between two patients' texts in the joined text: a searched text without it never matches across two patients. */
const SEPARATOR = "\u0000";

/** The texts joined in name order, with where each begins: one indexOf finds the next match in native code, where a
 * loop of `includes` over every patient spends most of its time stepping from string to string. */
const joinedTexts = (index: OrganisationIndex) => {
  if (index.joined) return index.joined;
  const starts = new Int32Array(index.entries.length + 1);
  let at = 0;
  index.entries.forEach((e, i) => {
    starts[i] = at;
    at += e.text.length + SEPARATOR.length;
  });
  starts[index.entries.length] = at;
  index.joined = { text: index.entries.map((e) => e.text + SEPARATOR).join(""), starts };
  return index.joined;
};

/** The positions (name order) of the patients whose text holds `text`, one after the other. */
function* holding(index: OrganisationIndex, text: string): Generator<number> {
  const { entries } = index;
  if (text.includes(SEPARATOR)) {
    for (let i = 0; i < entries.length; i++) if (entries[i]!.text.includes(text)) yield i;
    return;
  }
  const joined = joinedTexts(index);
  let i = 0;
  for (let found = joined.text.indexOf(text); found >= 0; found = joined.text.indexOf(text, joined.starts[i]!)) {
    while (joined.starts[i + 1]! <= found) i++;
    yield i;
    i++;
  }
}

/** The page of an organisation's active patients matching the text (name or unique id, any case) and birthdate. */
const searchIndex = (index: OrganisationIndex, s: PatientSearch): PatientSearchPage => {
  const text = s.name?.trim().toLowerCase() || null;
  const skipped = (s.page - 1) * s.quantity;
  const countUpTo = skipped + s.quantity + REMAINING_COUNTED_UP_TO;
  const page: Patient[] = [];
  let matched = 0;
  const candidates = text === null ? index.entries.keys() : holding(index, text);
  for (const i of candidates) {
    const patient = index.entries[i]!.patient;
    if (s.birthdate && patient.birthdate !== s.birthdate) continue;
    if (matched >= skipped && page.length < s.quantity) page.push(patient);
    if (++matched >= countUpTo) break;
  }
  return { entries: page, remaining: Math.min(REMAINING_COUNTED_UP_TO, Math.max(0, matched - skipped - page.length)), page: s.page };
};

export interface PatientIndex {
  search(org: string, s: PatientSearch): Promise<PatientSearchPage>;
  /** How many patients are held in memory, over how many organisations (diagnostics and tests). */
  held(): { organisations: number; patients: number };
}

/** Migration 012's trigger notifies this channel with the organisation whose patients a statement changed. */
const CHANGED_CHANNEL = "patient_changes";

export const patientIndex = (db: Database, now: () => number = Date.now): PatientIndex => {
  const slots = new Map<string, Slot>();
  let sweptAt = now();
  // PGlite: the one process hears every write's notification before the write returns, so while an organisation has
  // none since its version was read, the version query is skipped. Until listening works, and on PostgreSQL, every
  // search asks.
  const changedSinceRead = new Set<string>();
  const listening = db.listenInProcess
    ? db
        .listenInProcess(CHANGED_CHANNEL, (org) => changedSinceRead.add(org))
        .then(
          () => true,
          () => false,
        )
    : Promise.resolve(false);

  const sweep = () => {
    if (now() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now();
    for (const [org, slot] of slots) if (now() - slot.usedAt > IDLE_MS && !slot.waiting) slots.delete(org);
    // Rows older than IDLE_MS: an index that last looked before them finds the gap and reads its organisation again.
    void db
      .query(`delete from patient_changes where changed_at < clock_timestamp() - interval '${IDLE_MS / 60_000} minutes'`)
      .catch(() => undefined);
  };

  /** Refreshes run one after the other per organisation; searches that arrive before one starts share it. */
  const fresh = (org: string): Promise<OrganisationIndex> => {
    let slot = slots.get(org);
    if (!slot) slots.set(org, (slot = { usedAt: now() }));
    slot.usedAt = now();
    if (slot.waiting) return slot.waiting;
    const s = slot;
    const previous = s.last ?? Promise.resolve(undefined);
    const next: Promise<OrganisationIndex> = previous
      .catch(() => undefined)
      .then(async () => {
        if (s.waiting === next) s.waiting = undefined;
        const held = s.index;
        if (held && (await listening) && !changedSinceRead.has(org)) return held;
        // Forgotten before reading: a write committed during the read is heard again and read at the next search.
        changedSinceRead.delete(org);
        // Mostly nothing changed: one query by primary key says so, without the round trips of a transaction.
        if (held && (await readVersion(db, org)) === held.version) return held;
        const index = await db.snapshot((q) => refresh(q, org, held));
        s.index = index;
        return index;
      });
    s.waiting = next;
    s.last = next;
    return next;
  };

  return {
    async search(org, s) {
      sweep();
      return searchIndex(await fresh(org), s);
    },
    held: () => ({
      organisations: slots.size,
      patients: [...slots.values()].reduce((n, slot) => n + (slot.index?.entries.length ?? 0), 0),
    }),
  };
};
