import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Database, Queryable } from "./database.ts";
import { StartupError } from "./data-dir.ts";

// Plain SQL migrations (../migrations/NNN_name.sql), applied in name order, each once and in its own transaction;
// the same files run on PGlite and PostgreSQL.

const migrationsDir = fileURLToPath(new URL("../migrations/", import.meta.url));

/** Applies the migrations not applied yet, up to and including `upTo` when given (a restore builds the schema its file had). */
export const migrate = async (db: Database, upTo?: string): Promise<string[]> => {
  await db.exec("create table if not exists schema_migrations (name text primary key, applied_at text not null)");
  const done = new Set((await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name));
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
  const unknown = [...done].filter((name) => !files.includes(name)).sort();
  if (unknown.length)
    throw new StartupError(
      `schema version mismatch: the database has migration ${unknown.at(-1)}, which this Isopter does not know (it knows up to ${files.at(-1)}); run the Isopter that wrote it`,
    );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    if (upTo !== undefined && file > upTo) break;
    const sql = await readFile(migrationsDir + file, "utf8");
    await db.transaction(async (tx) => {
      // Statements are split on semicolons at line ends; the migration files keep to that form.
      for (const statement of sql
        .split(/;\s*$/m)
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query("insert into schema_migrations (name, applied_at) values ($1, $2)", [file, new Date().toISOString()]);
    });
    applied.push(file);
  }
  return applied;
};

/** The schema version of a database: the last migration applied (backups carry it). */
export const schemaVersion = async (db: Queryable): Promise<string> =>
  (await db.query<{ name: string }>("select max(name) as name from schema_migrations"))[0]?.name ?? "";

/** The schema version this code migrates to. */
export const knownSchemaVersion = async (): Promise<string> =>
  (await readdir(migrationsDir))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .at(-1) ?? "";
