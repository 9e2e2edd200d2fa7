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
  /**
   * PGlite only: `handler` hears `channel`'s notifications before the statement or transaction that committed them
   * resolves, and never a rolled-back one's. One process holds the data, so every write is heard. Absent on
   * PostgreSQL, where another process's notification may arrive after its answer (the bus listens there).
   */
  listenInProcess?(channel: string, handler: (payload: string) => void): Promise<void>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: "pglite" | "postgres";
}
