import type { Database } from "./database.ts";
import { StartupError } from "./data-dir.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";
import { migrate } from "./migrate.ts";

/** Where the data live: a PostgreSQL URL, a PGlite data directory, or (tests) PGlite in memory. */
export type Storage = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | undefined };

export { StartupError };

/** The URL without its password, for messages. */
export const redactedUrl = (url: string) => {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "DATABASE_URL (not a URL)";
  }
};

/** What keeps a PostgreSQL server from being used, in words. */
const postgresCause = (e: unknown): string => {
  const code = (e as { code?: string }).code;
  const message = (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
  if (code === "ECONNREFUSED") return "unreachable host (connection refused: is PostgreSQL running on that host and port?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "unreachable host (the host name does not resolve)";
  if (code === "ETIMEDOUT" || /timeout/i.test(message)) return "unreachable host (no answer in time)";
  if (code === "28P01") return "wrong password";
  if (code === "28000") return `access refused (${message})`;
  if (code === "3D000") return `no such database (${message})`;
  return `${code ? `${code} ` : ""}${message}`;
};

export const openDatabase = async (storage: Storage): Promise<Database> => {
  if (storage.kind === "postgres") {
    let db: Database;
    try {
      db = await openPostgres(storage.url);
    } catch (e) {
      throw new StartupError(`cannot use DATABASE_URL ${redactedUrl(storage.url)}: ${postgresCause(e)}`);
    }
    await migrate(db);
    return db;
  }
  const db = await openPglite(storage.dataDir);
  try {
    await migrate(db);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  return db;
};
