// `isopter backup --out FILE` and `isopter restore FILE` run this (the CLI starts it as a child process and never
// imports the server): node --import tsx simulator/server/backup/main.ts backup FILE | restore FILE
// The database is the one `npm start` would use (DATABASE_URL, else PGlite in DATA_DIR). Prints one JSON line on
// success; a failure is one line `Isopter: ...` and exit code 1.
import { join } from "node:path";
import { readConfig, ConfigError } from "../config.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/database.ts";
import { openPostgres } from "../db/postgres.ts";
import { StartupError, openDatabase, redactedUrl } from "../db/open.ts";
import { BackupError, backupTo, restoreFrom } from "./backup.ts";
import { countRows, recordCountsOf } from "../integrity/record.ts";

const main = async () => {
  const [command, file] = process.argv.slice(2);
  if ((command !== "backup" && command !== "restore") || !file) throw new ConfigError("usage: main.ts backup|restore FILE");
  const config = readConfig(process.env);
  const storage = config.databaseUrl
    ? ({ kind: "postgres", url: config.databaseUrl } as const)
    : ({ kind: "pglite", dataDir: join(config.dataDir, "pglite") } as const);
  const where = config.databaseUrl ? `DATABASE_URL ${redactedUrl(config.databaseUrl)}` : `DATA_DIR ${join(config.dataDir, "pglite")}`;
  if (command === "backup") {
    const db = await openDatabase(storage);
    try {
      const summary = await backupTo(db, file);
      // The counts it read are the integrity pass's record (integrity/record.ts) when no server runs on the database.
      const countRecord = await recordCountsOf(db, storage, "backup", summary.counts, summary.schemaVersion);
      console.log(JSON.stringify({ backup: file, from: where, ...summary, countRecord }));
    } finally {
      await db.close();
    }
    return;
  }
  // A restore makes the schema itself (up to the file's version), so the database is opened without migrating.
  let db: Database;
  try {
    db = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(join(config.dataDir, "pglite"));
  } catch (e) {
    if (e instanceof StartupError) throw e;
    throw new StartupError(`cannot use ${where}: ${(e as Error).message}`);
  }
  try {
    const summary = await restoreFrom(db, file);
    const countRecord = await recordCountsOf(db, storage, "restore", await db.snapshot(countRows), summary.migratedTo);
    console.log(JSON.stringify({ restored: file, into: where, ...summary, countRecord }));
  } finally {
    await db.close();
  }
};

main().catch((e: unknown) => {
  const known = e instanceof ConfigError || e instanceof StartupError || e instanceof BackupError;
  console.error(`Isopter: ${known ? (e as Error).message : ((e as Error)?.stack ?? String(e))}`);
  process.exit(1);
});
