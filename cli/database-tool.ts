import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { CliError, ExitCode } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";
import { projectRoot } from "./project-root.ts";

// The commands that work on the clinic database itself (backup, restore, check, audit verify) run one of the server's
// tools as a child process, against the database `npm start` would open: the CLI never imports the server
// (architecture rule), and PGlite's data directory belongs to one process at a time.

/** Which database: PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL (each defaulting to the environment's). */
export interface DatabaseChoice {
  readonly dataDir?: string;
  readonly databaseUrl?: string;
}

/** A tool's entry file, from the project root (e.g. "simulator/server/backup/main.ts"). */
export const databaseTool = (path: string): string => join(projectRoot(), path);

/** The child's environment: the CLI's, with the chosen database. */
export function databaseEnv(io: CliIo, choice: DatabaseChoice): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...io.env };
  if (choice.dataDir) env.DATA_DIR = resolve(io.cwd, choice.dataDir);
  if (choice.databaseUrl) env.DATABASE_URL = choice.databaseUrl;
  return env;
}

/** Runs a tool, its output passed on as it comes; a failure is its one stderr line ("Isopter: " dropped). */
export const runDatabaseTool = (io: CliIo, entry: string, args: readonly string[], choice: DatabaseChoice) =>
  new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
      cwd: io.cwd,
      env: databaseEnv(io, choice),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stdout.on("data", (d: Buffer) => io.stdout.write(d));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("error", fail);
    child.once("exit", (code) =>
      code === 0 ? done() : fail(new CliError(ExitCode.Failure, err.trim().replace(/^Isopter: /, "") || `exited with ${code}`)),
    );
  });
