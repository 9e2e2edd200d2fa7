// The one persistence interface the handlers see: PGlite (embedded, a data directory or memory) or a PostgreSQL
// server behind it. Same SQL on both; parameters are $1..$n.

export type Row = Record<string, unknown>;

export interface Queryable {
  query<R extends Row = Row>(sql: string, params?: ReadonlyArray<unknown>): Promise<R[]>;
}

export interface Database extends Queryable {
  /** Runs `work` in one transaction; resolves only once the commit is durable (flushed to the data directory). */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs `work`'s reads on one snapshot of the database (what was committed when it began), writing nothing. */
  snapshot<T>(work: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: "pglite" | "postgres";
}
