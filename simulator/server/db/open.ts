import type { Database } from "./database.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";
import { migrate } from "./migrate.ts";

/** Where the data live: a PostgreSQL URL, a PGlite data directory, or (tests) PGlite in memory. */
export type Storage = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | undefined };

export const openDatabase = async (storage: Storage): Promise<Database> => {
  const db = storage.kind === "postgres" ? await openPostgres(storage.url) : await openPglite(storage.dataDir);
  await migrate(db);
  return db;
};
