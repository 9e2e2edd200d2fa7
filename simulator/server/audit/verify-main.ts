// `isopter audit verify` runs this (the CLI starts it as a child process and never imports the server):
//   node --import tsx simulator/server/audit/verify-main.ts
// The database is the one `npm start` would use (DATABASE_URL, else PGlite in DATA_DIR), opened without migrating it:
// a verification changes nothing. It reads the rows themselves, hashes included, across every organisation, which
// no API call answers (a manager reads only their own organisation's trail, without hashes). AUDIT_NOTED_TAIL
// (position:hash, as an earlier run printed it) must still be there. Prints the report as one
// JSON line; exit 0 when the chain holds, 1 with `Isopter: ...` when it cannot be read, 6 when it is broken.
import { StartupError } from "../db/open.ts";
import { openUnmigrated, runTool, toolDatabase } from "../db/tool.ts";
import { checkNotedTail, verifyChain } from "./verify.ts";

export const BROKEN_EXIT = 6;

const main = async () => {
  const tool = toolDatabase(process.env);
  const where = tool.where;
  const db = await openUnmigrated(tool);
  try {
    const chained = await db.query(
      "select 1 from information_schema.columns where table_schema = 'public' and table_name = 'audit_events' and column_name = 'seq'",
    );
    if (chained.length === 0)
      throw new StartupError(`${where} has no audit chain yet (migration 016 not applied): start the server once on it, then verify`);
    // One snapshot: entries appended meanwhile (a server running on PostgreSQL) are left for the next verification.
    const noted = process.env.AUDIT_NOTED_TAIL;
    const report = await db.snapshot(async (q) => {
      const walked = await verifyChain(q);
      return walked.broken || !noted ? walked : { ...walked, broken: await checkNotedTail(q, noted) };
    });
    console.log(JSON.stringify({ database: where, ...report }));
    if (report.broken) process.exitCode = BROKEN_EXIT;
  } finally {
    await db.close();
  }
};

runTool(main);
