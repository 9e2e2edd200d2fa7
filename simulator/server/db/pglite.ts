import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { amcheck } from "@electric-sql/pglite/contrib/amcheck";
import type { Database, Queryable, Row } from "./database.ts";
import { checkDataDir, lockDataDir, StartupError } from "./data-dir.ts";

// Embedded PostgreSQL (WASM). PGlite starts postgres with fsync off, but every commit still write()s the WAL into the
// data directory through Node's fs, so an acknowledged write survives SIGKILL of this process (not a power cut).
// transaction() skips its own syncToFs after COMMIT (electric-sql/pglite#1065), so we call it explicitly before
// answering: with relaxedDurability false it is awaited.

export const openPglite = async (dataDir: string | undefined): Promise<Database> => {
  // One server per data directory (data-dir.ts): checked and locked before PGlite touches it.
  if (dataDir) checkDataDir(dataDir);
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  // pg_trgm: the patient search's trigram index (migration 009); PostgreSQL ships it in its contrib package.
  // amcheck: the integrity pass's index and heap checks (integrity/pass.ts). Data checksums: PGlite's initdb is
  // PostgreSQL 18's, which turns them on by default; asked for here all the same, so a new directory never lacks them.
  const options = { relaxedDurability: false, extensions: { pg_trgm, amcheck }, initDbStartParams: ["--data-checksums"] };
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir ? { dataDir, ...options } : options);
  } catch (e) {
    unlock();
    const cause = e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` : String(e);
    // A file PGlite could not write (checkDataDir looks at the directory and the main files, not every file).
    const denied = /\b(EACCES|EPERM|EROFS)\b/.exec(cause)?.[1];
    throw new StartupError(
      `cannot open DATA_DIR ${dataDir ?? "(in memory)"}: ${denied ? `not writable (${denied})` : "corrupt or unreadable data directory"} (${cause.split("\n")[0]})`,
    );
  }
  const asQueryable = (q: Pick<PGlite, "query">): Queryable => ({
    async query<R extends Row>(sql: string, params: ReadonlyArray<unknown> = []) {
      const result = await q.query<R>(sql, params as unknown[]);
      return result.rows;
    },
  });
  const top = asQueryable(pg);
  return {
    kind: "pglite",
    query: top.query,
    async transaction(work) {
      const value = await pg.transaction((tx) => work(asQueryable(tx)));
      await pg.syncToFs();
      return value;
    },
    // PGlite runs one statement at a time, so a transaction's reads all see the same state.
    snapshot: (work) => pg.transaction((tx) => work(asQueryable(tx))),
    async listenInProcess(channel, handler) {
      await pg.listen(channel, handler);
    },
    async exec(sql) {
      await pg.exec(sql);
    },
    async close() {
      try {
        await pg.close();
      } finally {
        unlock();
      }
    },
  };
};
