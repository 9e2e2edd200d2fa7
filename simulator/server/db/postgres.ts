import pg from "pg";
import type { Database, Queryable, Row } from "./database.ts";
import { isDatabaseUnavailable } from "./faults.ts";
import { log } from "../log.ts";

// A real PostgreSQL server (DATABASE_URL). Commits are durable when the server acknowledges them.
// The pool reconnects by itself: a connection that broke (server restarted, network cut) is thrown away rather than
// handed out again, and the next call opens a new one. While the server is away calls fail fast with errors that
// db/faults.ts reads as "unavailable" (the router answers 503 with Retry-After); the log says so once when it goes
// and once when it is back, not once per call.

// Keep bigint counts and numerics as JS numbers, as PGlite returns them (ids are text, so no precision is at stake).
pg.types.setTypeParser(20, (v: string) => Number(v));

export const openPostgres = async (connectionString: string): Promise<Database> => {
  const pool = new pg.Pool({ connectionString, max: 8, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  let away = false;
  const seen = <T>(p: Promise<T>): Promise<T> =>
    p.then(
      (v) => {
        if (away) (away = false), log.info("database_back", { database: "postgres" });
        return v;
      },
      (e: unknown) => {
        if (!away && isDatabaseUnavailable(e)) (away = true), log.warn("database_unavailable", { database: "postgres", error: e });
        throw e;
      },
    );
  // An idle connection the server closed: the pool drops it; without a listener the process would crash.
  pool.on("error", (e) => {
    if (!away && isDatabaseUnavailable(e)) (away = true), log.warn("database_unavailable", { database: "postgres", error: e });
  });
  await pool.query("select 1");
  const query = async <R extends Row>(client: Pick<pg.Pool, "query">, sql: string, params: ReadonlyArray<unknown>) =>
    (await client.query(sql, params as unknown[])).rows as R[];
  const inTransaction = async <T>(begin: string, work: (tx: Queryable) => Promise<T>): Promise<T> => {
    const client = await seen(pool.connect());
    let broken: Error | undefined;
    // A checked-out connection the server closes between two statements emits 'error' (unheard, it would crash us).
    const onError = (e: Error) => (broken = e);
    client.on("error", onError);
    try {
      await client.query(begin);
      const tx: Queryable = { query: (sql, params = []) => query(client, sql, params) };
      const value = await work(tx);
      await seen(client.query("commit"));
      return value;
    } catch (e) {
      if (isDatabaseUnavailable(e)) broken = e as Error;
      else await client.query("rollback").catch((r: Error) => (broken = r));
      throw e;
    } finally {
      client.off("error", onError);
      client.release(broken); // a broken connection is destroyed, not pooled
    }
  };
  return {
    kind: "postgres",
    query: (sql, params = []) => seen(query(pool, sql, params)),
    transaction: (work) => inTransaction("begin", work),
    snapshot: (work) => inTransaction("begin isolation level repeatable read read only", work),
    async exec(sql) {
      await seen(pool.query(sql));
    },
    async close() {
      await pool.end();
    },
  };
};
