// Where the cores went over one bench:cluster window, per part: each Isopter process (by pid), the bench's own
// PostgreSQL and nats-server (found by the port they listen on, so other PostgreSQL clusters and brokers on a shared
// machine are not counted), the bench itself and the machine as a whole. Read from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";
import { cpuSecondsOf, machineSeconds } from "../cpu-split.ts";

interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly comm: string;
  readonly args: string[];
}

const processes = (): ProcInfo[] =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        return [{ pid: Number(name), ppid, comm, args }];
      } catch {
        return [];
      }
    });

/** The times a process's JavaScript thread (its main one) has been woken from sleep so far: its voluntary context
 * switches; 0 once it is gone. */
const wakeupsOf = (pid: number): number => {
  try {
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** `-p PORT` among a process's arguments (how pg-throwaway.sh starts postgres and nats.ts starts nats-server). */
const listensOn = (p: ProcInfo, port: number) =>
  p.args.some((a, i) => (a === "-p" && p.args[i + 1] === String(port)) || a.includes(`-p ${port} `) || a.endsWith(`-p ${port}`));

/** The server started with `-p port` whose command is `comm`, and its children (PostgreSQL's backends). */
const serverTree = (all: ProcInfo[], comm: string, port: number | undefined): number[] => {
  if (port === undefined) return [];
  const roots = all.filter((p) => p.comm === comm && listensOn(p, port)).map((p) => p.pid);
  const rootSet = new Set(roots);
  return [...roots, ...all.filter((p) => rootSet.has(p.ppid)).map((p) => p.pid)];
};

export interface Cores {
  /** Each Isopter process, in order. */
  readonly perProcess: number[];
  /** Each Isopter process's wake-ups per second (the times it slept waiting for input and was woken): they rise as the
   * load per process falls, with the cost per headset (README: a trial that cut them threefold did not cut the cost). */
  readonly wakeups: number[];
  readonly servers: number;
  readonly postgres: number;
  readonly nats: number;
  /** The bench: its own process and its fleet processes. */
  readonly bench: number;
  readonly machine: number;
  readonly stolen: number;
}

/** Starts a window now; `take()` ends it and returns the cores each part used over it. */
export const clusterCpu = (o: {
  serverPids: readonly number[];
  /** The bench's fleet processes (fleet-processes.ts): counted with the bench. */
  fleetPids?: readonly number[];
  postgresPort?: number;
  natsPort?: number;
}) => {
  const sample = () => {
    const all = processes();
    const seconds = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]));
    const own = process.cpuUsage();
    return {
      at: performance.now(),
      servers: o.serverPids.map(cpuSecondsOf),
      woken: o.serverPids.map(wakeupsOf),
      postgres: seconds(serverTree(all, "postgres", o.postgresPort)),
      nats: seconds(serverTree(all, "nats-server", o.natsPort)),
      bench: (own.user + own.system) / 1e6 + (o.fleetPids ?? []).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
      machine: machineSeconds(),
    };
  };
  // A backend that started during the window counts from zero; one that ended is not counted (its time went with it).
  const grown = (to: Map<number, number>, from: Map<number, number>) => {
    let s = 0;
    for (const [pid, cpu] of to) s += cpu - (from.get(pid) ?? 0);
    return s;
  };
  const from = sample();
  return {
    take: (): Cores => {
      const to = sample();
      const s = (to.at - from.at) / 1000;
      const perProcess = to.servers.map((c, i) => (c - from.servers[i]!) / s);
      return {
        perProcess,
        wakeups: to.woken.map((w, i) => (w - from.woken[i]!) / s),
        servers: perProcess.reduce((a, b) => a + b, 0),
        postgres: grown(to.postgres, from.postgres) / s,
        nats: grown(to.nats, from.nats) / s,
        bench: (to.bench - from.bench) / s,
        machine: (to.machine.busy - from.machine.busy) / s,
        stolen: (to.machine.stolen - from.machine.stolen) / s,
      };
    },
  };
};
