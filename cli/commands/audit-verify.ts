import { spawn } from "node:child_process";
import type { Command } from "commander";
import { badArguments, CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { databaseEnv, databaseTool } from "../database-tool.ts";

// isopter audit verify [--data-dir DIR | --database-url URL] [--json]: walks the audit trail's hash chain (issue 33 §3)
// and names the first entry changed, removed or inserted. It reads the database itself, as `isopter backup` does
// (simulator/server/audit/verify-main.ts as a child process; the CLI never imports the server): the chain spans every
// organisation and its hashes, which no API call answers, and a verification must not depend on the server whose
// database it checks. PGlite's data directory belongs to one process: stop the server first; PostgreSQL may be
// verified while servers run on it (one snapshot).

const VERIFY_ENTRY = databaseTool("simulator/server/audit/verify-main.ts");

interface Report {
  readonly database: string;
  readonly entries: number;
  readonly beforeChain: number;
  readonly tail: { id: number; seq: number; hash: string } | null;
  readonly broken: { kind: string; id: number; seq: number | null; message: string } | null;
}

const runVerify = (io: CliIo, opts: { dataDir?: string; databaseUrl?: string; notedTail?: string }) =>
  new Promise<{ code: number | null; out: string; err: string }>((done, fail) => {
    const env = databaseEnv(io, opts);
    if (opts.notedTail) env.AUDIT_NOTED_TAIL = opts.notedTail;
    const child = spawn(process.execPath, ["--import", "tsx", VERIFY_ENTRY], { cwd: io.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("error", fail);
    child.once("exit", (code) => done({ code, out, err }));
  });

export function registerAuditVerify(audit: Command, io: CliIo): void {
  audit
    .command("verify")
    .description("walk the audit trail's hash chain and name the first entry changed, removed or inserted (exit 6 if any)")
    .option("--data-dir <dir>", "the PGlite data directory's parent, as npm start's DATA_DIR (default: env DATA_DIR, else ./.data)")
    .option("--database-url <url>", "a PostgreSQL database instead (default: env DATABASE_URL)")
    .option("--noted-tail <position:hash>", "a tail an earlier verification printed: it must still be there, with that hash")
    .option("--json", "the report as one JSON line", false)
    .addHelpText(
      "after",
      "\nPGlite: stop the server first (its data directory is locked). PostgreSQL: may run while the servers run.\nNote the printed tail (position:hash) elsewhere: a later run with --noted-tail shows entries removed from the end,\nwhich the chain alone cannot.\n\nExample:\n  DATABASE_URL=postgres://isopter@db/isopter isopter audit verify",
    )
    .action(async (opts: { dataDir?: string; databaseUrl?: string; notedTail?: string; json: boolean }) => {
      if (opts.notedTail !== undefined && !/^\d+:[0-9a-f]{64}$/.test(opts.notedTail))
        throw badArguments(`--noted-tail is position:hash as verify printed it (64 hex digits), got '${opts.notedTail}'`);
      const { code, out, err } = await runVerify(io, opts);
      if (code !== 0 && code !== ExitCode.AuditBroken)
        throw new CliError(ExitCode.Failure, err.trim().replace(/^Isopter: /, "") || `verification exited with ${code}`);
      const report = JSON.parse(out.trim().split("\n").at(-1)!) as Report;
      if (opts.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        const tail = report.tail
          ? `; last entry ${report.tail.id} at position ${report.tail.seq}, hash ${report.tail.hash} (note it: --noted-tail ${report.tail.seq}:${report.tail.hash})`
          : "";
        const before = report.beforeChain ? ` (and ${report.beforeChain} from before the chain began, counted by its start)` : "";
        io.stdout.write(
          report.broken
            ? `${report.database}: ${report.entries} entries hold up to the break${tail}\n`
            : `${report.database}: the chain holds: ${report.entries} entries${before}${tail}\n`,
        );
      }
      if (report.broken)
        throw new CliError(
          ExitCode.AuditBroken,
          `audit trail broken: ${report.broken.message} (${report.broken.kind}, entry ${report.broken.id})`,
        );
    });
}
