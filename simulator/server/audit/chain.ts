import { createHash } from "node:crypto";
import type { Queryable, Row } from "../db/database.ts";

// The audit trail's hash chain (issue 33 §3). Every entry carries its place (seq: 0, 1, 2, ... without gaps), the hash
// of the entry before it and its own hash, so an entry changed, removed or inserted in the database afterwards breaks
// the chain at that entry. The encoding that is hashed (ours; the standards prescribe none):
//
//   hash = lowercase hex of SHA-256 (FIPS 180-4) over the UTF-8 bytes of
//          prev_hash + "\n" + JSON.stringify([seq as a decimal string, organisation_id, at, actor_kind, actor_id,
//          actor_name, address, action, outcome, patient_id, record_type, record_id, note])
//
// every field a JSON string or null, in that order (JSON.stringify writes a string one way only, ECMA-262 §25.5.2).
// The first entry (seq 0) has prev_hash GENESIS. The database id is not hashed: the chain's order is seq's.
// What the chain cannot show by itself: the last entries removed together, or the whole chain rewritten from some
// entry on by someone who recomputes every later hash; the copy pushed to an audit repository (push.ts) and a tail
// noted elsewhere (`isopter audit verify` prints it, its --noted-tail checks it) are what such changes are checked against.

export const GENESIS = "0".repeat(64);

/** The columns an entry's hash covers, as stored (text or null). */
export const HASHED_COLUMNS = [
  "organisation_id",
  "at",
  "actor_kind",
  "actor_id",
  "actor_name",
  "address",
  "action",
  "outcome",
  "patient_id",
  "record_type",
  "record_id",
  "note",
] as const;
export type HashedColumn = (typeof HASHED_COLUMNS)[number];
export type HashedFields = Readonly<Record<HashedColumn, string | null>>;

export const entryHash = (seq: number, prevHash: string, fields: HashedFields): string =>
  createHash("sha256")
    .update(`${prevHash}\n${JSON.stringify([String(seq), ...HASHED_COLUMNS.map((c) => fields[c])])}`, "utf8")
    .digest("hex");

/** An entry as stored, with its chain columns. */
export interface ChainRow {
  readonly id: number;
  readonly seq: number | null;
  readonly prevHash: string | null;
  readonly hash: string | null;
  readonly fields: HashedFields;
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const toChainRow = (r: Row): ChainRow => ({
  id: Number(r.id),
  seq: r.seq === null || r.seq === undefined ? null : Number(r.seq),
  prevHash: text(r.prev_hash),
  hash: text(r.hash),
  fields: Object.fromEntries(HASHED_COLUMNS.map((c) => [c, text(r[c])])) as unknown as HashedFields,
});

export const CHAIN_COLUMNS = `id, seq, prev_hash, hash, ${HASHED_COLUMNS.join(", ")}`;

/** What is wrong, at which entry (the first one found, in chain order). */
export interface ChainBreak {
  readonly kind: "changed" | "removed" | "inserted";
  /** The entry named: the changed or inserted one, or for a removal the first entry after the gap. */
  readonly id: number;
  readonly seq: number | null;
  readonly message: string;
}

const at = (r: ChainRow) => `entry ${r.id} (position ${r.seq ?? "none"})`;

/**
 * Judges one entry against the one before it in chain order (`prev`, already judged) and the one after it (`next`,
 * which tells a changed predecessor from an inserted entry). `first` says whether the walk starts at the chain's start
 * (then the first entry must be seq 0 after GENESIS) or inside it (the start check's window).
 */
export const judge = (
  prev: ChainRow | undefined,
  r: ChainRow,
  next: ChainRow | undefined,
  first: "genesis" | "window",
): ChainBreak | null => {
  if (r.seq === null || r.hash === null || r.prevHash === null)
    return { kind: "inserted", id: r.id, seq: r.seq, message: `${at(r)} was inserted outside the trail: it has no chain hash` };
  if (entryHash(r.seq, r.prevHash, r.fields) !== r.hash)
    return { kind: "changed", id: r.id, seq: r.seq, message: `${at(r)} was changed: its fields no longer give its hash` };
  if (!prev) {
    if (first === "genesis" && (r.seq !== 0 || r.prevHash !== GENESIS))
      return {
        kind: "removed",
        id: r.id,
        seq: r.seq,
        message: `the chain's first entries were removed: it begins at ${at(r)}, not at position 0`,
      };
    return null;
  }
  const p = prev.seq!;
  if (r.seq === p) {
    // Two entries at one place: the one the chain goes on from is the original.
    const named = next && next.prevHash === r.hash ? prev : r;
    const other = named === r ? prev : r;
    return { kind: "inserted", id: named.id, seq: named.seq, message: `${at(named)} was inserted: its position is also ${at(other)}'s` };
  }
  if (r.seq > p + 1)
    return {
      kind: "removed",
      id: r.id,
      seq: r.seq,
      message: `${r.seq - p - 1 === 1 ? `the entry at position ${p + 1} was` : `the entries at positions ${p + 1} to ${r.seq - 1} were`} removed (between entry ${prev.id} and entry ${r.id})`,
    };
  if (r.prevHash !== prev.hash) {
    if (next && next.seq === r.seq + 1 && next.prevHash === r.hash)
      return {
        kind: "changed",
        id: prev.id,
        seq: prev.seq,
        message: `${at(prev)} was changed and its hash made again: ${at(r)} records another hash for it`,
      };
    return { kind: "inserted", id: r.id, seq: r.seq, message: `${at(r)} was inserted: it does not follow ${at(prev)}` };
  }
  return null;
};

/** Walks entries in chain order, one ahead, and answers the first break with the last entry that held. */
export const walk = async (
  rows: AsyncIterable<ChainRow>,
  first: "genesis" | "window",
): Promise<{ checked: number; last: ChainRow | undefined; firstRow: ChainRow | undefined; broken: ChainBreak | null }> => {
  const it = rows[Symbol.asyncIterator]();
  let prev: ChainRow | undefined;
  let firstRow: ChainRow | undefined;
  let checked = 0;
  let step = await it.next();
  while (!step.done) {
    const r = step.value;
    firstRow ??= r;
    step = await it.next();
    const broken = judge(prev, r, step.done ? undefined : step.value, first);
    if (broken) return { checked, last: prev, firstRow, broken };
    prev = r;
    checked++;
  }
  return { checked, last: prev, firstRow, broken: null };
};

const PAGE = 2_000;

/** Every chained entry in chain order (seq, then id), a page at a time. */
export async function* chainInOrder(q: Queryable): AsyncGenerator<ChainRow> {
  let after: { seq: string; id: number } | undefined;
  for (;;) {
    const rows = await q.query(
      `select ${CHAIN_COLUMNS} from audit_events where seq is not null ${after ? "and (seq, id) > ($1::bigint, $2::bigint)" : ""} order by seq, id limit ${PAGE}`,
      after ? [after.seq, after.id] : [],
    );
    for (const r of rows) yield toChainRow(r);
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { seq: String(last.seq), id: Number(last.id) };
  }
}

/** The chain's start entry names the entries from before it as "count:last id" (record_id). */
export const BEFORE_CHAIN = "audit.before";
export const CHAIN_START_ACTION = "audit.chainStart";

export const parseBefore = (recordId: string | null): { count: number; lastId: number } | null => {
  const m = /^(\d+):(\d+)$/.exec(recordId ?? "");
  return m ? { count: Number(m[1]), lastId: Number(m[2]) } : null;
};
