import { resolve } from "node:path";
import type { Command } from "commander";
import type { CliIo } from "../io.ts";
import { databaseTool, runDatabaseTool } from "../database-tool.ts";

// isopter backup --out FILE / isopter restore FILE: the whole clinic database (PGlite in DATA_DIR, or PostgreSQL at
// DATABASE_URL, as `npm start` would use) to one file with its schema version and a checksum, and back into an empty
// database with a consistency check. The work runs in simulator/server/backup/main.ts as a child process: the CLI never
// imports the server (architecture rule). PGlite's data directory belongs to one process: stop the server first.

const BACKUP_ENTRY = databaseTool("simulator/server/backup/main.ts");

interface StorageOptions {
  dataDir?: string;
  databaseUrl?: string;
}

const run = (io: CliIo, args: string[], opts: StorageOptions) => runDatabaseTool(io, BACKUP_ENTRY, args, opts);

const storageOptions = (c: Command) =>
  c
    .option("--data-dir <dir>", "the PGlite data directory's parent, as npm start's DATA_DIR (default: env DATA_DIR, else ./.data)")
    .option("--database-url <url>", "a PostgreSQL database instead (default: env DATABASE_URL)");

export function registerBackup(program: Command, io: CliIo): void {
  storageOptions(program.command("backup").description("write the whole clinic database to one file (schema version and checksum inside)"))
    .requiredOption("--out <file>", "the backup file to write")
    .addHelpText(
      "after",
      "\nPGlite: stop the server first (its data directory is locked). PostgreSQL: may run while the server runs (one snapshot).\n\nExample:\n  isopter backup --out clinic-2026-11-25.isopter",
    )
    .action(async (opts: StorageOptions & { out: string }) => run(io, ["backup", resolve(io.cwd, opts.out)], opts));
  storageOptions(
    program
      .command("restore <file>")
      .description("restore a backup into an empty database (a new DATA_DIR or an empty PostgreSQL database), checked"),
  )
    .addHelpText(
      "after",
      "\nThe schema is made up to the file's version, the rows loaded in one transaction and counted, then newer migrations run.\n\nExample:\n  DATA_DIR=/srv/isopter-restored isopter restore clinic-2026-11-25.isopter",
    )
    .action(async (file: string, opts: StorageOptions) => run(io, ["restore", resolve(io.cwd, file)], opts));
}
