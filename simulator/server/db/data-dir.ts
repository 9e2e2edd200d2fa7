import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";

// A PGlite data directory belongs to one server at a time: PGlite is one process's embedded PostgreSQL, and a second
// writer on the same files loses the first one's acknowledged writes. `<dir>.lock` (beside the directory, so the
// database files stay PostgreSQL's alone) names the holding process; a lock whose process is gone (SIGKILL, power
// cut) is taken over, by one starting server only (see takeOver). Before PGlite opens the directory, the checks below turn what would be "PGlite failed to
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

const parseHolder = (text: string | undefined): Holder | undefined => {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Holder);
  } catch {
    return undefined;
  }
};

const readHolder = (file: string): Holder | undefined => {
  try {
    return parseHolder(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
};

const unwritable = (code: string | undefined) => code === "EACCES" || code === "EPERM" || code === "EROFS";

const why = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return unwritable(code)
    ? `not writable (${code})`
    : code === "ENOTDIR"
      ? "a path part is a file, not a directory (ENOTDIR)"
      : `${code ?? ""} ${(e as Error).message}`.trim();
};

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};

const statMtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Removes a stale lock, unless another starting server took it over first. Two servers that both saw the same stale
 * lock must not both remove it (the second would remove the first's new lock and both would start): the removal
 * happens only under `<lock>.takeover`, created exclusively, and only if the lock still names the dead holder that
 * was seen (the same text). Whoever then creates the lock exclusively (openSync "wx") holds it; the other sees a live holder.
 * Answers false when another server is taking over right now (the caller looks again).
 */
const takeOver = (dir: string, file: string, stale: string): boolean => {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new StartupError(`cannot lock DATA_DIR ${dir}: ${why(e)}`);
    const taker = readHolder(guard);
    // A take-over left unfinished by a process that died within it (a few system calls long): removing it here could
    // let two servers take over at once, so a person decides.
    if (taker && taker.host === hostname() && !alive(taker.pid))
      throw new StartupError(
        `cannot lock DATA_DIR ${dir}: process ${taker.pid} died while taking over its stale lock; if no Isopter server runs on it, remove ${guard}`,
      );
    return false;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() } satisfies Holder));
    if (readText(file) === stale) unlinkSync(file);
  } finally {
    closeSync(fd);
    unlinkSync(guard);
  }
  return true;
};

/** Takes the directory's lock (or says who holds it); the returned function releases it. */
export const lockDataDir = (dir: string): (() => void) => {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 50; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new StartupError(`cannot lock DATA_DIR ${dir}: ${why(e)}`);
      const text = readText(file);
      if (text === undefined) continue; // removed meanwhile
      const holder = parseHolder(text);
      // Being written by the server that just created it (created and written are two calls): look again shortly,
      // unless it has been unreadable for seconds (a process died between the two): then it is stale.
      if (!holder && Date.now() - statMtime(file) < 5_000) {
        pause(20);
        continue;
      }
      if (holder && holder.host === hostname() && alive(holder.pid))
        throw new StartupError(
          `DATA_DIR ${dir} is in use by process ${holder.pid} (${holder.pid === process.pid ? "this process" : "another Isopter server"}, started ${holder.startedAt}); stop it first or choose another DATA_DIR`,
        );
      if (holder && holder.host !== hostname())
        throw new StartupError(
          `DATA_DIR ${dir} is locked by process ${holder.pid} on host ${holder.host}; if that server is gone, remove ${file}`,
        );
      // Its process is gone: a stale lock, taken over by one server only.
      if (!takeOver(dir, file, text)) pause(20);
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
    const code = (e as NodeJS.ErrnoException).code;
    // mkdir names the directory it could not make; what is not writable is the one it was to be made in.
    if (unwritable(code)) throw new StartupError(`cannot use DATA_DIR ${dir}: not writable (${code}: cannot create it in ${dirname(dir)})`);
    throw new StartupError(`cannot use DATA_DIR ${dir}: ${why(e)}`);
  }
  if (!statSync(dir).isDirectory()) throw new StartupError(`cannot use DATA_DIR ${dir}: it is a file, not a directory`);
  // PGlite writes into the directory and its database files; one it cannot write fails later as "failed to initialize".
  const writable = (path: string, file = false) => {
    try {
      accessSync(path, constants.R_OK | constants.W_OK | (file ? 0 : constants.X_OK));
    } catch (e) {
      throw new StartupError(
        `cannot use DATA_DIR ${dir}: not writable (${(e as NodeJS.ErrnoException).code ?? "access denied"}${path === dir ? "" : ` on ${path}`})`,
      );
    }
  };
  writable(dir);
  const entries = readdirSync(dir);
  if (entries.length === 0) return; // a new database is made here
  if (!entries.includes("PG_VERSION"))
    throw new StartupError(`cannot use DATA_DIR ${dir}: not a data directory (no PG_VERSION; it holds ${entries.length} other entries)`);
  const version = readFileSync(`${dir}/PG_VERSION`, "utf8").trim();
  if (version !== PGLITE_PG_MAJOR)
    throw new StartupError(
      `cannot use DATA_DIR ${dir}: version mismatch (made by PostgreSQL ${version}, this Isopter reads ${PGLITE_PG_MAJOR})`,
    );
  for (const sub of ["global", "base", "pg_wal"]) if (existsSync(`${dir}/${sub}`)) writable(`${dir}/${sub}`);
  const control = `${dir}/global/pg_control`;
  if (!existsSync(control)) throw new StartupError(`cannot use DATA_DIR ${dir}: corrupt data directory (global/pg_control is missing)`);
  writable(control, true);
  if (statSync(control).size !== 8192)
    throw new StartupError(
      `cannot use DATA_DIR ${dir}: corrupt control file (global/pg_control is ${statSync(control).size} bytes, not 8192)`,
    );
};
