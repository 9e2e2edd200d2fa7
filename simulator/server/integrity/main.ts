// `isopter check` runs this (the CLI starts it as a child process and never imports the server):
//   node --import tsx simulator/server/integrity/main.ts [--json]
// The database is the one `npm start` would use (DATABASE_URL, else PGlite in DATA_DIR/pglite), opened without
// migrating, so what is checked is what is there. Prints the report (a line per table, or JSON with --json); exit code
// 0 when no damage was found, 1 when some was (the verdict's line also on stderr) or the database cannot be opened.
import { join } from "node:path";
import { ConfigError, readConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { StartupError, redactedUrl } from "../db/open.ts";
import { openPglite } from "../db/pglite.ts";
import { openPostgres } from "../db/postgres.ts";
import { damagedTables, integrityPass } from "./pass.ts";
import { recordStore } from "./record.ts";
import { refusalLine, reportLines } from "./words.ts";

const main = async () => {
  const json = process.argv.includes("--json");
  const config = readConfig(process.env);
  const storage = config.databaseUrl
    ? ({ kind: "postgres", url: config.databaseUrl } as const)
    : ({ kind: "pglite", dataDir: join(config.dataDir, "pglite") } as const);
  const where = storage.kind === "postgres" ? `DATABASE_URL ${redactedUrl(storage.url)}` : `DATA_DIR ${storage.dataDir}`;
  let db: Database;
  try {
    db = storage.kind === "postgres" ? await openPostgres(storage.url) : await openPglite(storage.dataDir);
  } catch (e) {
    if (e instanceof StartupError) throw e;
    throw new StartupError(`cannot use ${where}: ${(e as Error).message.split("\n")[0]}`);
  }
  try {
    const record = await recordStore(db, storage)
      .read()
      .catch(() => undefined);
    const report = await integrityPass(db, record);
    console.log(json ? JSON.stringify(report) : reportLines(report, storage).join("\n"));
    if (damagedTables(report).length) {
      console.error(`Isopter: ${refusalLine(report, storage)}`);
      process.exitCode = 1;
    }
  } finally {
    await db.close();
  }
};

main().catch((e: unknown) => {
  const known = e instanceof ConfigError || e instanceof StartupError;
  console.error(`Isopter: ${known ? (e as Error).message : ((e as Error)?.stack ?? String(e))}`);
  process.exit(1);
});
