import { join } from "node:path";
import { ConfigError, readConfig } from "../config.ts";
import type { Database } from "./database.ts";
import { redactedUrl, StartupError } from "./open.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

// What the server's command-line tools (backup and restore, the integrity check, the audit chain's verification;
// started by the CLI as child processes) share: the database `npm start` would use, opened as it is, and one line on
// failure.

/** The configured database (DATABASE_URL, else PGlite in DATA_DIR/pglite) and how a message names it. */
export function toolDatabase(env: NodeJS.ProcessEnv): {
  storage: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  where: string;
} {
  const config = readConfig(env);
  return config.databaseUrl
    ? { storage: { kind: "postgres", url: config.databaseUrl }, where: `DATABASE_URL ${redactedUrl(config.databaseUrl)}` }
    : { storage: { kind: "pglite", dataDir: join(config.dataDir, "pglite") }, where: `DATA_DIR ${join(config.dataDir, "pglite")}` };
}

/** Opened without migrating: a tool checks, verifies or restores what is there. A failure is one line naming `where`. */
export async function openUnmigrated(tool: ReturnType<typeof toolDatabase>): Promise<Database> {
  const { storage, where } = tool;
  try {
    return storage.kind === "postgres" ? await openPostgres(storage.url) : await openPglite(storage.dataDir);
  } catch (e) {
    if (e instanceof StartupError) throw e;
    throw new StartupError(`cannot use ${where}: ${(e as Error).message.split("\n")[0]}`);
  }
}

/** Runs a tool's main: an error it expects (`known`, with bad configuration and start-up) is one `Isopter: ...` line, exit 1. */
export function runTool(main: () => Promise<void>, known: (e: unknown) => boolean = () => false): void {
  main().catch((e: unknown) => {
    const expected = e instanceof ConfigError || e instanceof StartupError || known(e);
    console.error(`Isopter: ${expected ? (e as Error).message : ((e as Error)?.stack ?? String(e))}`);
    process.exit(1);
  });
}
