import pg from "pg";
import type { Database, Queryable, Row } from "./database.ts";

// A real PostgreSQL server (DATABASE_URL). Commits are durable when the server acknowledges them.

// Keep bigint counts and numerics as JS numbers, as PGlite returns them (ids are text, so no precision is at stake).
pg.types.setTypeParser(20, (v: string) => Number(v));

export const openPostgres = async (connectionString: string): Promise<Database> => {
  const pool = new pg.Pool({ connectionString, max: 8 });
  await pool.query("select 1");
  const query = async <R extends Row>(client: Pick<pg.Pool, "query">, sql: string, params: ReadonlyArray<unknown>) =>
    (await client.query(sql, params as unknown[])).rows as R[];
  return {
    kind: "postgres",
    query: (sql, params = []) => query(pool, sql, params),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const tx: Queryable = { query: (sql, params = []) => query(client, sql, params) };
        const value = await work(tx);
        await client.query("commit");
        return value;
      } catch (e) {
        await client.query("rollback").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
};
