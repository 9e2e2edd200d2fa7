// A PostgreSQL for the benches that measure it: BENCH_DATABASE_URL when given, else a throwaway cluster started with
// scripts/pg-throwaway.sh (as the test suites do) on a free port of 127.0.0.1, in a temp directory removed by stop().
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../scripts/cluster/processes.ts";

const script = fileURLToPath(new URL("../scripts/pg-throwaway.sh", import.meta.url));

/** Whether Debian's PostgreSQL server binaries (initdb) are installed, as pg-throwaway.sh expects them. */
export const initdbAvailable = () => {
  const root = "/usr/lib/postgresql";
  return existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, "bin", "initdb")));
};

/** What an interrupted bench must end before its PostgreSQL stops (processes of its own, say): run first on Ctrl-C. */
const onInterrupt = new Set<() => void>();
export const beforeInterruptExit = (end: () => void) => {
  onInterrupt.add(end);
  return () => onInterrupt.delete(end);
};

export interface BenchPostgres {
  url: string;
  /** How the bench got it, for its header: "BENCH_DATABASE_URL" or "throwaway PostgreSQL on 127.0.0.1:PORT". */
  origin: string;
  stop: () => void;
}

/** BENCH_DATABASE_URL, or a throwaway PostgreSQL when initdb exists, or null (the bench then says it measured none). */
export const benchPostgres = async (): Promise<BenchPostgres | null> => {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, origin: "BENCH_DATABASE_URL", stop: () => undefined };
  if (!initdbAvailable()) return null;
  const dir = mkdtempSync(join(tmpdir(), "isopter-bench-pg-"));
  const port = await freePort();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    execFileSync("bash", [script, "stop", dir]);
  };
  try {
    const url = execFileSync("bash", [script, "start", dir, String(port)])
      .toString()
      .trim();
    // Stopped on Ctrl-C too: a throwaway server left running would hold its port and memory.
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        for (const end of onInterrupt) end();
        stop();
        process.exit(130);
      });
    return { url, origin: `throwaway PostgreSQL on 127.0.0.1:${port}`, stop };
  } catch (e) {
    stop();
    throw e;
  }
};
