import type { Database } from "../db/database.ts";
import { StartupError } from "../db/data-dir.ts";
import type { Storage } from "../db/open.ts";
import { schemaVersion } from "../db/migrate.ts";
import { log } from "../log.ts";
import { damagedTables, integrityPass } from "./pass.ts";
import { countRows, lastProcess, recordStore } from "./record.ts";
import { isDataDamaged } from "../db/faults.ts";
import { damagedLine, failedPassLine, refusalLine } from "./words.ts";

// The integrity pass at start (issue 33 item 5). It runs on the migrated database before anything else reads it.
// Finished within the budget: a damaged database is refused, the start fails with one line. Not finished (a large
// database): the server starts, but until the pass has passed /api/ready answers 503 with the reason and every other
// API call, and every socket, is refused with 503 too, so nothing unchecked is served; damage found then keeps it so,
// with the same line in the log and on /api/ready. On PGlite the pass holds the one connection, so the start waits
// for it anyway. At a clean shutdown the counts are recorded (record.ts), but only after a pass that passed, and on
// PostgreSQL only by the last process leaving (while others run, the counts keep changing).

/** How long a start waits for the pass before listening with readiness false. */
export const INTEGRITY_BUDGET_MS = 3_000;

export interface IntegrityGate {
  /** damaged: the pass found damage, could not run, or the count record cannot be kept; nothing is served. */
  readonly state: "checking" | "passed" | "damaged";
  /** Why the server is not ready (checking or damaged). */
  readonly reason: string;
  /** A clean shutdown: records the row counts (after a pass that passed). Call before the database closes. */
  recordShutdown(): Promise<void>;
  /** `db` as the server uses it: a damaged page or index a statement meets later (SQLSTATE XX001/XX002) turns the gate
   * to damaged, so nothing more is served and the shutdown records no counts of a damaged database. */
  watching(db: Database): Database;
}

/** Shutdown's count may not hold the drain up: PostgreSQL stops it after this long (PGlite databases are small). */
const SHUTDOWN_COUNT_TIMEOUT_MS = 3_000;

export const checkAtStart = async (db: Database, storage: Storage, budgetMs = INTEGRITY_BUDGET_MS): Promise<IntegrityGate> => {
  const store = recordStore(db, storage);
  // PGlite in memory (tests) was made by this process a moment ago, with no file to damage: nothing to check.
  const inMemory = storage.kind === "pglite" && !storage.dataDir;
  let state = (inMemory ? "passed" : "checking") as IntegrityGate["state"];
  let reason = "Checking the database (integrity pass); try again in a moment";
  // A record that cannot be read (its own table damaged) is no record: the pass finds that table's damage itself.
  const record = await store.read().catch(() => undefined);
  const pass = (async () => {
    if (inMemory) return;
    let report: Awaited<ReturnType<typeof integrityPass>>;
    try {
      report = await integrityPass(db, record);
    } catch (e) {
      state = "damaged";
      reason = failedPassLine(e, storage);
      return log.error("integrity_damaged", { line: reason });
    }
    if (damagedTables(report).length) {
      state = "damaged";
      reason = refusalLine(report, storage);
      return log.error("integrity_damaged", { line: reason });
    }
    try {
      // From here on writes change the counts: a crash must leave a record that is not compared.
      await store.write({
        state: "running",
        source: record?.source ?? "shutdown",
        recordedAt: record?.recordedAt ?? new Date().toISOString(),
        schemaVersion: record?.schemaVersion ?? "",
        counts: record?.counts ?? {},
      });
    } catch (e) {
      // Serving on would leave a "clean" record the next start compares with changed tables: refused instead.
      state = "damaged";
      reason = `cannot mark the count record in ${store.where} as in use (${(e as Error).message.split("\n")[0]})`;
      return log.error("integrity_record_failed", { line: reason });
    }
    state = "passed";
    log.info("integrity_passed", {
      ms: report.ms,
      tables: report.tables.length,
      indexes: report.tables.reduce((n, t) => n + t.indexes, 0),
      compared: report.comparedWith,
      ...(report.notes.length ? { notes: report.notes.join("; ") } : {}),
    });
  })();
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([pass.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), budgetMs)))]);
  clearTimeout(timer);
  if (inTime && state === "damaged") throw new StartupError(reason);
  if (!inTime) log.warn("integrity_checking", { after_ms: budgetMs, note: "listening with readiness false until the pass is done" });
  return {
    get state() {
      return state;
    },
    get reason() {
      return reason;
    },
    watching(inner) {
      const seen = <T>(p: Promise<T>): Promise<T> =>
        p.catch((e: unknown) => {
          if (isDataDamaged(e) && state !== "damaged") {
            state = "damaged";
            reason = `${damagedLine(e, storage)}`;
            log.error("integrity_damaged", { line: reason });
          }
          throw e;
        });
      return {
        ...inner,
        kind: inner.kind,
        query: (sql, params) => seen(inner.query(sql, params)),
        transaction: (work) => seen(inner.transaction(work)),
        snapshot: (work) => seen(inner.snapshot(work)),
        exec: (sql) => seen(inner.exec(sql)),
        close: () => inner.close(),
      };
    },
    async recordShutdown() {
      // Never bless counts of a database found damaged or not yet checked; PGlite in memory keeps nothing.
      if (state !== "passed" || inMemory) return;
      try {
        if (!(await lastProcess(db))) return;
        const counts = await db.snapshot(async (q) => {
          if (db.kind === "postgres") await q.query(`select set_config('statement_timeout', '${SHUTDOWN_COUNT_TIMEOUT_MS}', true)`);
          return countRows(q);
        });
        await store.write({
          state: "clean",
          source: "shutdown",
          recordedAt: new Date().toISOString(),
          schemaVersion: await schemaVersion(db),
          counts,
        });
      } catch (e) {
        // The record stays "running": the next start does not compare counts, and says so.
        log.warn("integrity_counts_not_recorded", { error: e });
      }
    },
  };
};
