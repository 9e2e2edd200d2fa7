import type { Database, Queryable } from "../db/database.ts";

// What the integrity pass (pass.ts) needs to know before it reads: amcheck loaded, data checksums, the public schema's
// tables and their valid indexes (with the primary key's columns, for the count through it).

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

/** Loads amcheck into the database if it can be (PGlite always; PostgreSQL needs its contrib package and a superuser). */
export const ensureAmcheck = async (db: Database): Promise<string | undefined> => {
  try {
    await db.exec("create extension if not exists amcheck");
    return undefined;
  } catch (e) {
    const present = await db.query("select 1 from pg_extension where extname = 'amcheck'").catch(() => []);
    return present.length ? undefined : `amcheck is not available (${firstLine(e)}): indexes are read, not checked`;
  }
};

export type Relation = {
  readonly oid: string;
  readonly name: string;
  readonly pages: number;
};
export type Index = Relation & {
  readonly table: string;
  readonly am: string;
  readonly primary: boolean;
  readonly columns: string[];
};

/** What the pass reads about the database first: checksums, amcheck's functions, the tables and their indexes. */
export const catalogue = async (q: Queryable) => ({
  checksums: (await q.query<{ data_checksums: string }>("show data_checksums"))[0]?.data_checksums === "on",
  fns: new Set(
    (
      await q.query<{ name: string }>(
        "select distinct p.proname as name from pg_proc p join pg_extension e on e.extname = 'amcheck' join pg_depend d on d.objid = p.oid and d.refobjid = e.oid",
      )
    ).map((r) => r.name),
  ),
  tables: await q.query<Relation>(
    `select c.oid::text as oid, c.relname as name, (pg_relation_size(c.oid) / 8192)::int as pages from pg_class c
     join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  ),
  indexes: await q.query<Index>(
    `select i.indexrelid::text as oid, ic.relname as name, tc.relname as "table", am.amname as am, i.indisprimary as primary,
            (pg_relation_size(i.indexrelid) / 8192)::int as pages,
            array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality k(n, o)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as columns
     from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class tc on tc.oid = i.indrelid
     join pg_namespace n on n.oid = tc.relnamespace join pg_am am on am.oid = ic.relam
     where n.nspname = 'public' and i.indisvalid order by ic.relname`,
  ),
});
