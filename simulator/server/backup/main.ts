// `isopter backup --out FILE` and `isopter restore FILE` run this (the CLI starts it as a child process and never
// imports the server): node --import tsx simulator/server/backup/main.ts backup FILE | restore FILE
// The database is the one `npm start` would use (DATABASE_URL, else PGlite in DATA_DIR). Prints one JSON line on
// success; a failure is one line `Isopter: ...` and exit code 1.
import { ConfigError } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { openUnmigrated, runTool, toolDatabase } from "../db/tool.ts";
import { BackupError, backupTo, restoreFrom } from "./backup.ts";
import { countRows, recordCountsOf } from "../integrity/record.ts";

const main = async () => {
  const [command, file] = process.argv.slice(2);
  if ((command !== "backup" && command !== "restore") || !file) throw new ConfigError("usage: main.ts backup|restore FILE");
  const tool = toolDatabase(process.env);
  const { storage, where } = tool;
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
  const db = await openUnmigrated(tool);
  try {
    const summary = await restoreFrom(db, file);
    const countRecord = await recordCountsOf(db, storage, "restore", await db.snapshot(countRows), summary.migratedTo);
    console.log(JSON.stringify({ restored: file, into: where, ...summary, countRecord }));
  } finally {
    await db.close();
  }
};

runTool(main, (e) => e instanceof BackupError);
