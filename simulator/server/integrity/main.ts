// `isopter check` runs this (the CLI starts it as a child process and never imports the server):
//   node --import tsx simulator/server/integrity/main.ts [--json]
// The database is the one `npm start` would use (DATABASE_URL, else PGlite in DATA_DIR/pglite), opened without
// migrating, so what is checked is what is there. Prints the report (a line per table, or JSON with --json); exit code
// 0 when no damage was found, 1 when some was (the verdict's line also on stderr) or the database cannot be opened.
import { openUnmigrated, runTool, toolDatabase } from "../db/tool.ts";
import { damagedTables, integrityPass } from "./pass.ts";
import { recordStore } from "./record.ts";
import { refusalLine, reportLines } from "./words.ts";

const main = async () => {
  const json = process.argv.includes("--json");
  const tool = toolDatabase(process.env);
  const storage = tool.storage;
  const db = await openUnmigrated(tool);
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

runTool(main);
