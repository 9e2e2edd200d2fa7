import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

// A PGlite data directory belongs to one server at a time: PGlite is one process's embedded PostgreSQL, and a second
// writer on the same files loses the first one's acknowledged writes. `<dir>.lock` (beside the directory, so the
// database files stay PostgreSQL's alone) names the holding process; a lock whose process is gone (SIGKILL, power
// cut) is taken over. Before PGlite opens the directory, the checks below turn what would be "PGlite failed to
// initialize properly" into one line naming the directory and the cause.

/** PostgreSQL major version of the data directories this PGlite makes and reads. */
export const PGLITE_PG_MAJOR = "18";

/** A start-up failure: one line naming the data directory or URL and the cause (start.ts prints it and exits 1). */
export class StartupError extends Error {}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

const readHolder = (file: string): Holder | undefined => {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Holder;
  } catch {
    return undefined;
  }
};

const why = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM" || code === "EROFS"
    ? `not writable (${code})`
    : code === "ENOTDIR"
      ? "a path part is a file, not a directory (ENOTDIR)"
      : `${code ?? ""} ${(e as Error).message}`.trim();
};

/** Takes the directory's lock (or says who holds it); the returned function releases it. */
export const lockDataDir = (dir: string): (() => void) => {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new StartupError(`cannot lock DATA_DIR ${dir}: ${why(e)}`);
      const holder = readHolder(file);
      if (holder && holder.host === hostname() && alive(holder.pid))
        throw new StartupError(
          `DATA_DIR ${dir} is in use by process ${holder.pid} (${holder.pid === process.pid ? "this process" : "another Isopter server"}, started ${holder.startedAt}); stop it first or choose another DATA_DIR`,
        );
      if (holder && holder.host !== hostname())
        throw new StartupError(
          `DATA_DIR ${dir} is locked by process ${holder.pid} on host ${holder.host}; if that server is gone, remove ${file}`,
        );
      unlinkSync(file); // its process is gone: a stale lock
      continue;
    }
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() } satisfies Holder));
    closeSync(fd);
    return () => {
      if (readHolder(file)?.pid === process.pid) unlinkSync(file);
    };
  }
  throw new StartupError(`cannot lock DATA_DIR ${dir}: the lock file ${file} keeps coming back`);
};

/** Makes the directory if needed and checks that it is (or can become) a PGlite data directory of this version. */
export const checkDataDir = (dir: string) => {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new StartupError(`cannot use DATA_DIR ${dir}: ${why(e)}`);
  }
  if (!statSync(dir).isDirectory()) throw new StartupError(`cannot use DATA_DIR ${dir}: it is a file, not a directory`);
  const entries = readdirSync(dir);
  if (entries.length === 0) return; // a new database is made here
  if (!entries.includes("PG_VERSION"))
    throw new StartupError(`cannot use DATA_DIR ${dir}: not a data directory (no PG_VERSION; it holds ${entries.length} other entries)`);
  const version = readFileSync(`${dir}/PG_VERSION`, "utf8").trim();
  if (version !== PGLITE_PG_MAJOR)
    throw new StartupError(
      `cannot use DATA_DIR ${dir}: version mismatch (made by PostgreSQL ${version}, this Isopter reads ${PGLITE_PG_MAJOR})`,
    );
  const control = `${dir}/global/pg_control`;
  if (!existsSync(control)) throw new StartupError(`cannot use DATA_DIR ${dir}: corrupt data directory (global/pg_control is missing)`);
  if (statSync(control).size !== 8192)
    throw new StartupError(
      `cannot use DATA_DIR ${dir}: corrupt control file (global/pg_control is ${statSync(control).size} bytes, not 8192)`,
    );
};
