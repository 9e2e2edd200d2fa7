import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { projectRoot as findProjectRoot } from "../project-root.ts";

// isopter check: the integrity pass the server runs at start (simulator/server/integrity/), on demand: every table read
// through, its indexes checked by amcheck, its row count compared with the last clean shutdown's or backup's record.
// Prints what it found per table; exit code 1 when anything is damaged. It runs in
// simulator/server/integrity/main.ts as a child process: the CLI never imports the server (architecture rule).

const CHECK_ENTRY = join(findProjectRoot(), "simulator/server/integrity/main.ts");

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
    .action(
      (opts: CheckOptions) =>
        new Promise<void>((done, fail) => {
          const env: Record<string, string | undefined> = { ...io.env };
          if (opts.dataDir) env.DATA_DIR = resolve(io.cwd, opts.dataDir);
          if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
          const child = spawn(process.execPath, ["--import", "tsx", CHECK_ENTRY, ...(opts.json ? ["--json"] : [])], {
            cwd: io.cwd,
            env,
            stdio: ["ignore", "pipe", "pipe"],
          });
          let err = "";
          child.stdout.on("data", (d: Buffer) => io.stdout.write(d));
          child.stderr.on("data", (d: Buffer) => (err += d.toString()));
          child.once("error", fail);
          child.once("exit", (code) =>
            code === 0 ? done() : fail(new CliError(ExitCode.Failure, err.trim().replace(/^Isopter: /, "") || `exited with ${code}`)),
          );
        }),
    );
}
