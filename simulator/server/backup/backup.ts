import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Database, Queryable } from "../db/database.ts";
import { knownSchemaVersion, migrate, schemaVersion } from "../db/migrate.ts";

// Backup and restore of the whole database (PGlite or PostgreSQL alike), as JSON lines:
//   {"format":"isopter-backup","version":1,"schemaVersion":"009_...","database":"pglite","createdAt":"...","tables":[...]}
//   {"table":"patients","row":{...}}                       one line per row, every table, parents before children
//   {"end":true,"counts":{"patients":12,...},"sha256":"..."}   sha256 of every line before this one
// The rows are read in one snapshot (a repeatable-read transaction), so the file is one moment's state. A restore goes
// into an empty database: the schema is made by the migrations up to the file's schema version, the rows are loaded in
// one transaction, sequences are moved past the restored ids, the counts are checked against the file's, and the
// migrations after the file's version then run, so an older backup restores into a newer Isopter.

export const BACKUP_FORMAT = "isopter-backup";

export class BackupError extends Error {}

/** The running processes' messages, leases and headsets (migrations 010, 011) and the patient search's change log
 * (012): a moment's traffic or rebuilt from the patients, not data; and the integrity pass's count record (017),
 * which belongs to the database it describes (a restore writes its own). */
export const TRANSIENT_TABLES: ReadonlySet<string> = new Set([
  "schema_migrations",
  "integrity_counts",
  "bus_events",
  "server_processes",
  "device_presence",
  "patient_versions",
  "patient_changes",
]);

/** Tables in an order where every foreign key points to a table before it. */
const tablesInOrder = async (q: Queryable): Promise<string[]> => {
  const tables = (
    await q.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
    )
  )
    .map((r) => r.name)
    .filter((t) => !TRANSIENT_TABLES.has(t));
  const edges = await q.query<{ child: string; parent: string }>(
    `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
     join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = 'public'`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables);
  while (pending.size) {
    const ready = [...pending].filter((t) => !edges.some((e) => e.child === t && e.parent !== t && pending.has(e.parent)));
    if (ready.length === 0) throw new BackupError(`foreign keys form a cycle among ${[...pending].join(", ")}`);
    for (const t of ready) ordered.push(t), pending.delete(t);
  }
  return ordered;
};

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface BackupSummary {
  readonly schemaVersion: string;
  readonly counts: Record<string, number>;
}

/** Writes the whole database to `file`. */
export const backupTo = async (db: Database, file: string): Promise<BackupSummary> => {
  const out = createWriteStream(file, { mode: 0o600 });
  const hash = createHash("sha256");
  const line = (value: unknown) => {
    const text = `${JSON.stringify(value)}\n`;
    hash.update(text);
    return new Promise<void>((resolve, reject) => out.write(text, (e) => (e ? reject(e) : resolve())));
  };
  const summary = await db.snapshot(async (q) => {
    const version = await schemaVersion(q);
    const tables = await tablesInOrder(q);
    await line({
      format: BACKUP_FORMAT,
      version: 1,
      schemaVersion: version,
      database: db.kind,
      createdAt: new Date().toISOString(),
      tables,
    });
    const counts: Record<string, number> = {};
    for (const table of tables) {
      counts[table] = 0;
      // to_jsonb keeps every column's value as PostgreSQL has it (jsonb as json, text as text, numbers as numbers).
      for (const r of await q.query<{ row: unknown }>(`select to_jsonb(t) as row from ${quoted(table)} t`)) {
        await line({ table, row: typeof r.row === "string" ? JSON.parse(r.row) : r.row });
        counts[table]++;
      }
    }
    return { schemaVersion: version, counts };
  });
  const end = `${JSON.stringify({ end: true, counts: summary.counts, sha256: hash.digest("hex") })}\n`;
  await new Promise<void>((resolve, reject) => out.end(end, () => resolve()).once("error", reject));
  return summary;
};

interface Header {
  readonly format: string;
  readonly version: number;
  readonly schemaVersion: string;
  readonly tables: string[];
}

/** Reads and checks a backup file (format, checksum, counts) before anything is written. */
const readBackup = async (file: string) => {
  const hash = createHash("sha256");
  const rows = new Map<string, unknown[]>();
  let header: Header | undefined;
  let end: { counts: Record<string, number>; sha256: string } | undefined;
  let n = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    n++;
    if (end) throw new BackupError(`${file}: line ${n}: text after the end line`);
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new BackupError(`${file}: line ${n} is not JSON (a damaged or truncated file)`);
    }
    if (n === 1) {
      if (value.format !== BACKUP_FORMAT || value.version !== 1)
        throw new BackupError(`${file}: not an Isopter backup (format ${String(value.format)})`);
      header = value as unknown as Header;
    } else if (value.end === true) end = value as unknown as typeof end;
    else {
      const table = String(value.table);
      if (!header!.tables.includes(table)) throw new BackupError(`${file}: line ${n}: unknown table ${table}`);
      rows.set(table, [...(rows.get(table) ?? []), value.row]);
    }
    if (!end) hash.update(`${text}\n`);
  }
  if (!header) throw new BackupError(`${file}: empty`);
  if (!end) throw new BackupError(`${file}: no end line (the backup was cut short)`);
  if (hash.digest("hex") !== end.sha256) throw new BackupError(`${file}: checksum mismatch (the file was changed or damaged)`);
  for (const t of header.tables)
    if ((rows.get(t)?.length ?? 0) !== (end.counts[t] ?? 0))
      throw new BackupError(`${file}: ${t} has ${rows.get(t)?.length ?? 0} rows, the end line says ${end.counts[t]}`);
  return { header, rows, counts: end.counts };
};

/** Restores `file` into an empty database; answers the schema version of the file and the rows restored per table. */
export const restoreFrom = async (db: Database, file: string): Promise<BackupSummary & { migratedTo: string }> => {
  const { header, rows, counts } = await readBackup(file);
  const known = await knownSchemaVersion();
  if (header.schemaVersion > known)
    throw new BackupError(
      `${file}: schema version ${header.schemaVersion} is newer than this Isopter's (${known}); restore it with the Isopter that made it`,
    );
  await migrate(db, header.schemaVersion);
  const existing = await db.query<{ n: number }>("select count(*)::int as n from organisations");
  if (existing[0]!.n > 0)
    throw new BackupError(
      `the target database is not empty (${existing[0]!.n} organisations); restore into a new DATA_DIR or an empty database`,
    );
  await db.transaction(async (tx) => {
    const tables = await tablesInOrder(tx);
    for (const table of header.tables)
      if (!tables.includes(table))
        throw new BackupError(`${file}: table ${table} does not exist at schema version ${header.schemaVersion}`);
    await tx.query("delete from settings"); // made by the migrations; the file's own settings (token secret) replace them
    for (const table of tables.filter((t) => header.tables.includes(t))) {
      // Generated columns (result_text) are computed again, not inserted.
      const columns = (
        await tx.query<{ c: string }>(
          "select column_name as c from information_schema.columns where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position",
          [table],
        )
      )
        .map((r) => quoted(r.c))
        .join(", ");
      for (const row of rows.get(table) ?? [])
        await tx.query(
          `insert into ${quoted(table)} (${columns}) select ${columns} from jsonb_populate_record(null::${quoted(table)}, $1::jsonb)`,
          [JSON.stringify(row)],
        );
    }
    // Serial columns continue after the restored ids.
    const serials = await tx.query<{ t: string; c: string }>(
      "select table_name as t, column_name as c from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'",
    );
    for (const { t, c } of serials)
      await tx.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quoted(c)}) from ${quoted(t)}), 0) + 1, false)`,
        [t, c],
      );
    // Consistency: every table holds what the file says (foreign keys were checked on every insert).
    for (const t of header.tables) {
      const n = (await tx.query<{ n: number }>(`select count(*)::int as n from ${quoted(t)}`))[0]!.n;
      if (n !== (counts[t] ?? 0)) throw new BackupError(`after the restore ${t} holds ${n} rows, the file ${counts[t]}`);
    }
  });
  await migrate(db);
  return { schemaVersion: header.schemaVersion, counts, migratedTo: await schemaVersion(db) };
};
