import type { Command } from "commander";
import type { CliIo } from "../io.ts";
import { databaseTool, runDatabaseTool } from "../database-tool.ts";

// isopter check: the integrity pass the server runs at start (simulator/server/integrity/), on demand: every table read
// through, its indexes checked by amcheck, its row count compared with the last clean shutdown's or backup's record.
// Prints what it found per table; exit code 1 when anything is damaged. It runs in
// simulator/server/integrity/main.ts as a child process: the CLI never imports the server (architecture rule).

const CHECK_ENTRY = databaseTool("simulator/server/integrity/main.ts");

interface CheckOptions {
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

export function registerCheck(program: Command, io: CliIo): void {
  program
    .command("check")
    .description("check the clinic database: every table read through, indexes checked (amcheck), row counts against the last record")
    .option("--data-dir <dir>", "the PGlite data directory's parent, as npm start's DATA_DIR (default: env DATA_DIR, else ./.data)")
    .option("--database-url <url>", "a PostgreSQL database instead (default: env DATABASE_URL)")
    .option("--json", "the report as JSON")
    .addHelpText(
      "after",
      "\nPGlite: stop the server first (its data directory is locked). PostgreSQL: may run while servers run (one snapshot);\nthe row counts are compared only with a record no server has changed since.\n\nExample:\n  isopter check --data-dir /srv/isopter",
    )
    .action((opts: CheckOptions) => runDatabaseTool(io, CHECK_ENTRY, opts.json ? ["--json"] : [], opts));
}
