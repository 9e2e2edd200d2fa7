import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Database, Queryable } from "../db/database.ts";
import type { Storage } from "../db/open.ts";
import { TRANSIENT_TABLES } from "../backup/backup.ts";

// What the integrity pass compares the tables' row counts with: the counts at the last clean shutdown, backup or
// restore, and whether a server has run since (then writes may have changed them, and they are not compared).
// Where it is kept, so that a damaged table cannot hide its own record:
// - PGlite: a file beside the data directory (`<dir>.integrity.json`, next to `<dir>.lock`), outside PostgreSQL's
//   files, so no cut, zeroed or garbled database file can take the record with it.
// - PostgreSQL: the table integrity_counts (migration 017). The server may run on another host than the database, and
//   several processes share it, so the record lives in the database, in a table (a file) of its own: damage to a data
//   table leaves it whole, and damage to it is found like any table's (its pages read, its primary key checked).

export interface CountRecord {
  /** clean: written with no server running since; running: a server started after it (a crash leaves it so). */
  readonly state: "clean" | "running";
  readonly source: "shutdown" | "backup" | "restore";
  readonly recordedAt: string;
  /** Compared only at the same schema version (a migration may add rows). */
  readonly schemaVersion: string;
  readonly counts: Readonly<Record<string, number>>;
}

export interface RecordStore {
  /** Where the record is, in words (for reports). */
  readonly where: string;
  read(): Promise<CountRecord | undefined>;
  write(record: CountRecord): Promise<void>;
}

/** Tables whose counts are not recorded: the processes' traffic (backup.ts's transient tables) and the record itself. */
export const uncounted = (table: string) => TRANSIENT_TABLES.has(table) || table === "integrity_counts";

const fileStore = (file: string): RecordStore => ({
  where: file,
  async read() {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    try {
      return JSON.parse(text) as CountRecord;
    } catch {
      return undefined; // a record cut short by a crash mid-write is no record (the rename below makes that rare)
    }
  },
  async write(record) {
    // Written beside and renamed over: a crash leaves the old record or the new one, never half of one.
    writeFileSync(`${file}.new`, `${JSON.stringify(record, null, 1)}\n`, { mode: 0o600 });
    renameSync(`${file}.new`, file);
  },
});

const tableStore = (db: Database): RecordStore => ({
  where: "table integrity_counts",
  async read() {
    const rows = await db.query<{ record: CountRecord | string }>("select record from integrity_counts where id = 1");
    const r = rows[0]?.record;
    return typeof r === "string" ? (JSON.parse(r) as CountRecord) : r;
  },
  async write(record) {
    await db.transaction((tx) =>
      tx.query("insert into integrity_counts (id, record) values (1, $1) on conflict (id) do update set record = excluded.record", [
        JSON.stringify(record),
      ]),
    );
  },
});

const nowhere: RecordStore = { where: "nowhere (PGlite in memory)", read: async () => undefined, write: async () => undefined };

/** The record's place for this storage. */
export const recordStore = (db: Database, storage: Storage): RecordStore =>
  storage.kind === "postgres" ? tableStore(db) : storage.dataDir ? fileStore(`${storage.dataDir}.integrity.json`) : nowhere;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every counted table's rows, read in one snapshot. */
export const countRows = async (q: Queryable): Promise<Record<string, number>> => {
  const tables = await q.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables)
    if (!uncounted(name)) counts[name] = Number((await q.query<{ n: number }>(`select count(*) as n from ${quoted(name)}`))[0]!.n);
  return counts;
};

/** True when no other server process holds a live lease (PostgreSQL; on PGlite the table stays empty). */
export const lastProcess = async (db: Queryable) =>
  Number((await db.query<{ n: number }>("select count(*) as n from server_processes where lease_until >= clock_timestamp()"))[0]!.n) === 0;

/** The record's words: "the last clean shutdown (2026-11-28T10:20:00Z)". */
export const recordWords = (r: CountRecord) =>
  `the last ${r.source === "shutdown" ? "clean shutdown" : r.source} (${r.recordedAt.slice(0, 19).replace("T", " ")} UTC)`;

/**
 * After a backup or a restore: the counts it read become the record, when no server runs on the database (a running
 * one keeps changing them; PGlite's directory is locked by a running server, so there it always holds). A backup of a
 * database whose counts differ from a clean record does not overwrite that record: the difference is damage or an
 * unrecorded change, which `isopter check` should look at first. Answers what was done, in words.
 */
export const recordCountsOf = async (
  db: Database,
  storage: Storage,
  source: "backup" | "restore",
  counts: Readonly<Record<string, number>>,
  schemaVersion: string,
): Promise<string> => {
  if (!(await lastProcess(db))) return "not recorded: a server is running on this database";
  const store = recordStore(db, storage);
  const before = await store.read().catch(() => undefined);
  if (source === "backup" && before?.state === "clean" && before.schemaVersion === schemaVersion) {
    const names = new Set([...Object.keys(before.counts), ...Object.keys(counts)]);
    const differs = [...names].find((t) => before.counts[t] !== counts[t]);
    if (differs !== undefined)
      return `not recorded: ${differs} holds ${counts[differs] ?? 0} rows, ${recordWords(before)} recorded ${before.counts[differs] ?? 0}; run isopter check`;
  }
  await store.write({ state: "clean", source, recordedAt: new Date().toISOString(), schemaVersion, counts });
  return `recorded in ${store.where}`;
};
