// Where the machine's cores went over a bench window: the Isopter processes, PostgreSQL, the bench itself (which plays
// the headsets and browsers) and the machine as a whole, in cores (CPU seconds per second). Read from /proc (Linux),
// so a reader can tell a server that ran out of CPU from a machine that did.
import { cpus } from "node:os";
import { readdirSync, readFileSync } from "node:fs";

/** USER_HZ: /proc counts CPU time in hundredths of a second on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export const cpuSecondsOf = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ": state, ppid, ... utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
};

/** The PostgreSQL server's processes now (postmaster, background workers, one backend per connection). */
const postgresPids = (): number[] =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
      } catch {
        return false;
      }
    });

/**
 * Busy CPU seconds of the whole machine (every core) and the seconds the host took for other guests (steal: a virtual
 * machine's cores are shared), from the first line of /proc/stat.
 */
export const machineSeconds = (): { busy: number; stolen: number } => {
  // cpu user nice system idle iowait irq softirq steal ...
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: (user + nice + system + irq + softirq) / TICKS_PER_SECOND, stolen: steal / TICKS_PER_SECOND };
};

interface Sample {
  readonly at: number;
  readonly servers: number;
  readonly postgres: Map<number, number>;
  readonly bench: number;
  readonly machine: { busy: number; stolen: number };
}

const sample = (serverPids: readonly number[]): Sample => {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    servers: serverPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    postgres: new Map(postgresPids().map((pid) => [pid, cpuSecondsOf(pid)])),
    bench: (own.user + own.system) / 1e6,
    machine: machineSeconds(),
  };
};

/**
 * Starts a window now; `take()` ends it and starts the next, returning the cores each part used in it. A PostgreSQL
 * backend that started during the window counts from zero; one that ended is not counted (its time is lost with it).
 */
export const cpuWindow = (serverPids: readonly number[]) => {
  let from = sample(serverPids);
  return {
    take: () => {
      const to = sample(serverPids);
      const seconds = (to.at - from.at) / 1000;
      let postgres = 0;
      for (const [pid, cpu] of to.postgres) postgres += cpu - (from.postgres.get(pid) ?? 0);
      const cores = {
        servers: (to.servers - from.servers) / seconds,
        postgres: postgres / seconds,
        bench: (to.bench - from.bench) / seconds,
        machine: (to.machine.busy - from.machine.busy) / seconds,
        stolen: (to.machine.stolen - from.machine.stolen) / seconds,
      };
      from = to;
      return cores;
    },
  };
};

/** "servers 0.92 / PostgreSQL 0.41 / bench 0.55 / machine 1.93 of 2 cores (0.02 taken by the host)". */
export const formatCores = (c: ReturnType<ReturnType<typeof cpuWindow>["take"]>): string =>
  `servers ${c.servers.toFixed(2)} / PostgreSQL ${c.postgres.toFixed(2)} / bench ${c.bench.toFixed(2)} / machine ${c.machine.toFixed(2)} of ${cpus().length} cores (${c.stolen.toFixed(2)} taken by the host)`;
