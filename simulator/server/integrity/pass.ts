import type { Database, Queryable } from "../db/database.ts";
import { schemaVersion } from "../db/migrate.ts";
import { type CountRecord, recordWords, uncounted } from "./record.ts";
import { catalogue, ensureAmcheck, type Index, type Relation } from "./catalogue.ts";

// The integrity pass (issue 33 item 5): every table of the public schema read through, its indexes checked against
// it, and its row count compared with the last clean shutdown's, backup's or restore's record.
// Per table (on PostgreSQL all in one snapshot):
// 1. count(*) by a sequential scan (index scans turned off): every page of the table is read, so a page whose checksum
//    fails ("invalid page in block"), or a file shorter than the catalogue says, stops it.
// 2. the count against the record (record.ts). A file cut or zeroed at a page boundary reads as a shorter, valid table
//    (PostgreSQL takes an all-zero page for an empty new one, checksums or not): only the count tells.
// 3. verify_heapam (amcheck, PostgreSQL 14+): each tuple's header, xmin/xmax and TOAST pointers ("F.2. amcheck",
//    PostgreSQL 15 documentation).
// 4. every btree index with bt_index_check(index, heapallindexed => true): the index's own structure, and every table
//    row found in it. On PGlite, where nothing else runs during the pass, bt_index_parent_check (the parent/child
//    invariants too; it takes a ShareLock, which on a shared PostgreSQL would hold writers back). GIN indexes with
//    gin_index_check where the server has it (PostgreSQL 18, so PGlite); other kinds are named as not checked.
// 5. the count again through the primary key (index scan, each entry's row fetched from the table): an index entry
//    pointing past the table's end (a cut table) fails here, and an index that lost entries counts fewer rows.
// A failing step is one finding, and the pass goes on to the next (see Session).
// What it cannot see: on PostgreSQL a page held in the server's shared buffers is read from there, not from the file,
// so damage done to a file under a running PostgreSQL shows once the page is read from disk again (after a restart,
// or once it has left the cache); and a record table damaged together with a data table (both zeroed) leaves nothing
// to compare counts with (the report says "no count record").

export interface TableFinding {
  readonly table: string;
  /** Rows read through (undefined: the table could not be read). */
  readonly rows: number | undefined;
  /** The record's count (undefined: not compared). */
  readonly recorded: number | undefined;
  readonly pages: number;
  /** Indexes checked by amcheck. */
  readonly indexes: number;
  readonly problems: ReadonlyArray<string>;
  readonly notes: ReadonlyArray<string>;
}

export interface IntegrityReport {
  readonly database: Database["kind"];
  readonly tables: ReadonlyArray<TableFinding>;
  /** What the counts were compared with, or why not, in words. */
  readonly comparedWith: string;
  readonly checksums: boolean;
  readonly amcheck: boolean;
  readonly notes: ReadonlyArray<string>;
  readonly ms: number;
}

export const damagedTables = (r: IntegrityReport) => r.tables.filter((t) => t.problems.length > 0);

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

/** A step that failed for a reason other than damage (`unchecked`: the check could not run; the report notes it). */
type Step<T> = { ok: true; value: T } | { ok: false; error: string; unchecked: boolean };

// SQLSTATEs that say a check could not run, not that data are damaged: no EXECUTE on amcheck's functions (42501, a
// role that is not a superuser), an index too new for the snapshot's heapallindexed check (40001), a feature or state
// the server lacks (0A000, 55000). Anything else, a read error above all (XX001, XX002, 58P01), is damage.
const UNCHECKED = new Set(["42501", "40001", "0A000", "55000"]);

/** Where the pass runs: on PostgreSQL one snapshot, each step in a savepoint so that a failing one leaves the
 * transaction usable; on PGlite, where nothing else runs meanwhile, plain statements (a failing one fails alone),
 * which saves some 400 statements on a clinic's 30-odd tables. */
interface Session {
  readonly q: Queryable;
  readonly inTransaction: boolean;
}

const step = async <T>({ q, inTransaction }: Session, work: () => Promise<T>): Promise<Step<T>> => {
  if (inTransaction) await q.query("savepoint integrity_step");
  try {
    const value = await work();
    if (inTransaction) await q.query("release savepoint integrity_step");
    return { ok: true, value };
  } catch (e) {
    if (inTransaction) await q.query("rollback to savepoint integrity_step");
    return { ok: false, error: firstLine(e), unchecked: UNCHECKED.has(String((e as { code?: unknown }).code)) };
  }
};

const PLANNER = ["enable_seqscan", "enable_indexscan", "enable_sort", "enable_indexonlyscan", "enable_bitmapscan"];

/** Sequential scans only, or index scans only (each row fetched from the table); local to the transaction, or on
 * PGlite set for the session and reset by `resetPlanner` once the pass is done. */
const planner = ({ q, inTransaction }: Session, scan: "seq" | "index") =>
  q.query(
    `select set_config('enable_seqscan', $1, $3), set_config('enable_indexscan', $2, $3), set_config('enable_sort', $1, $3),
            set_config('enable_indexonlyscan', 'off', $3), set_config('enable_bitmapscan', 'off', $3)`,
    scan === "seq" ? ["on", "off", inTransaction] : ["off", "on", inTransaction],
  );

const resetPlanner = async ({ q }: Session) => {
  for (const name of PLANNER) await q.query(`reset ${name}`);
};

/** Is the record's count comparable with the tables now? Answers the words for the report either way. */
const comparable = (record: CountRecord | undefined, version: string): { compare: boolean; words: string } => {
  if (!record) return { compare: false, words: "no count record yet (first start, or a database from before this check)" };
  if (record.state !== "clean")
    return { compare: false, words: `not compared: a server ran since ${recordWords(record)} and did not shut down cleanly yet` };
  if (record.schemaVersion !== version)
    return { compare: false, words: `not compared: ${recordWords(record)} was at schema ${record.schemaVersion}, now ${version}` };
  return { compare: true, words: recordWords(record) };
};

interface Finding {
  readonly rows: number | undefined;
  readonly indexes: number;
  readonly problems: string[];
  readonly notes: string[];
}

/** Steps 1 to 4 for one table (sequential scans set). */
const readTable = async (
  session: Session,
  t: Relation,
  indexes: Index[],
  fns: Set<string>,
  kind: Database["kind"],
  recorded: number | undefined,
  words: string,
): Promise<Finding> => {
  const { q } = session;
  const problems: string[] = [];
  const notes: string[] = [];
  const seq = await step(session, async () => Number((await q.query<{ n: number }>(`select count(*) as n from ${quoted(t.name)}`))[0]!.n));
  if (!seq.ok) (seq.unchecked ? notes : problems).push(`cannot be read through (${seq.error})`);
  else if (recorded !== undefined && seq.value !== recorded) problems.push(`holds ${seq.value} rows; ${words} recorded ${recorded}`);
  if (fns.has("verify_heapam")) {
    const heap = await step(session, () =>
      q.query<{ blkno: number; msg: string }>("select blkno, msg from verify_heapam($1::oid::regclass, check_toast => true)", [t.oid]),
    );
    if (!heap.ok) (heap.unchecked ? notes : problems).push(`heap check ${heap.unchecked ? "not run" : "failed"} (${heap.error})`);
    else if (heap.value.length)
      problems.push(`${heap.value.length} damaged rows (block ${heap.value[0]!.blkno}: ${heap.value[0]!.msg.split("\n")[0]})`);
  }
  let checked = 0;
  for (const ix of indexes) {
    const fn =
      ix.am === "btree"
        ? kind === "pglite" && fns.has("bt_index_parent_check")
          ? "bt_index_parent_check($1::oid::regclass, true)"
          : fns.has("bt_index_check") && "bt_index_check($1::oid::regclass, true)"
        : ix.am === "gin" && fns.has("gin_index_check") && "gin_index_check($1::oid::regclass)";
    if (!fn) {
      if (fns.size) notes.push(`index ${ix.name} (${ix.am}) not checked: no amcheck function for it here`);
      continue;
    }
    const r = await step(session, () => q.query(`select ${fn}`, [ix.oid]));
    if (r.ok) checked++;
    else if (r.unchecked) notes.push(`index ${ix.name} not checked (${r.error})`);
    else problems.push(`index ${ix.name} is damaged (${r.error})`);
  }
  return { rows: seq.ok ? seq.value : undefined, indexes: checked, problems, notes };
};

/** Step 5 for one table (index scans set). */
const throughKey = async (session: Session, t: Relation, key: Index | undefined, found: Finding) => {
  if (!key || found.rows === undefined) return;
  const order = key.columns.map(quoted).join(", ");
  const through = await step(session, async () =>
    Number((await session.q.query<{ n: number }>(`select count(*) as n from (select 1 from ${quoted(t.name)} order by ${order}) s`))[0]!.n),
  );
  if (!through.ok)
    (through.unchecked ? found.notes : found.problems).push(`cannot be read through its primary key ${key.name} (${through.error})`);
  else if (through.value !== found.rows)
    found.problems.push(`its primary key ${key.name} finds ${through.value} rows, the table holds ${found.rows}`);
};

/** Runs the pass (on PostgreSQL on one snapshot). `record`: the counts to compare with (record.ts). */
export const integrityPass = async (db: Database, record: CountRecord | undefined): Promise<IntegrityReport> => {
  const started = performance.now();
  const missingAmcheck = await ensureAmcheck(db);
  const run = async (session: Session): Promise<IntegrityReport> => {
    const known = await step(session, () => schemaVersion(session.q)); // a database never migrated has no schema_migrations
    const { compare, words } = comparable(record, known.ok ? known.value : "");
    const { checksums, fns, tables, indexes } = await catalogue(session.q);
    const recordedOf = (t: Relation) => (compare && !uncounted(t.name) ? record!.counts[t.name] : undefined);
    const found: Finding[] = [];
    await planner(session, "seq");
    for (const t of tables)
      found.push(
        await readTable(
          session,
          t,
          indexes.filter((ix) => ix.table === t.name),
          fns,
          db.kind,
          recordedOf(t),
          words,
        ),
      );
    await planner(session, "index");
    for (const [i, t] of tables.entries())
      await throughKey(
        session,
        t,
        indexes.find((ix) => ix.table === t.name && ix.primary),
        found[i]!,
      );
    const findings: TableFinding[] = tables.map((t, i) => ({ table: t.name, recorded: recordedOf(t), pages: t.pages, ...found[i]! }));
    // A table the record names that is no longer there (its catalogue entry lost).
    if (compare)
      for (const [name, n] of Object.entries(record!.counts))
        if (!tables.some((t) => t.name === name))
          findings.push({
            table: name,
            rows: undefined,
            recorded: n,
            pages: 0,
            indexes: 0,
            problems: [`is missing; ${words} recorded ${n} rows`],
            notes: [],
          });
    const notes = [
      ...(missingAmcheck ? [missingAmcheck] : []),
      ...(checksums
        ? []
        : ["data checksums are off: a garbled page is found only where its structure breaks (see README, data checksums)"]),
    ];
    return {
      database: db.kind,
      tables: findings,
      comparedWith: words,
      checksums,
      amcheck: fns.size > 0,
      notes,
      ms: Math.round(performance.now() - started),
    };
  };
  if (db.kind === "postgres") return db.snapshot((q) => run({ q, inTransaction: true }));
  const session = { q: db, inTransaction: false };
  try {
    return await run(session);
  } finally {
    await resetPlanner(session);
  }
};
