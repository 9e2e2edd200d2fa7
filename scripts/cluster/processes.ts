// Isopter processes of a local cluster (start:cluster, the cluster suite, bench:cluster): each one is exactly what
// `npm start` runs (simulator/start.ts) with DATABASE_URL and its own PORT, a child process on 127.0.0.1.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Whether nothing listens on 127.0.0.1:port. */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });

/** A free port picked by the system. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Ports browsers and fetch refuse to reach (the Fetch standard's "bad ports" at and above 4000). */
const BAD_PORTS = new Set([4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/** `n` consecutive free ports (the first one picked by the system, so parallel runs do not collide), from `from` when given. */
export const consecutivePorts = async (n: number, from?: number): Promise<number[]> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = from !== undefined ? from + attempt * n : await freePort();
    const ports = Array.from({ length: n }, (_, i) => first + i);
    if (first + n > 65535 || ports.some((p) => BAD_PORTS.has(p))) continue;
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return ports;
  }
  throw new Error(`no ${n} consecutive free ports found`);
};

export interface ClusterProcess {
  /** 1-based, as printed. */
  readonly number: number;
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly deviceUrl: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Everything it printed (stdout and stderr), for a failing test to show. */
  output(): string;
  /** SIGKILL: the process dies at once (a crash); SIGTERM: it drains. Resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export interface ProcessOptions {
  readonly databaseUrl: string;
  readonly port: number;
  readonly number: number;
  /** More environment: HEADSETS (default 0), HEADSET_URLS, DEMO_PASSWORD, SPEED, ... */
  readonly env?: Record<string, string>;
  /** Each line it prints (default: kept only). */
  readonly onLine?: (line: string) => void;
  /** How long to wait for "Isopter listening" (default 120 s: the first start migrates and seeds). */
  readonly timeoutMs?: number;
  /** Node's own flags before the script (bench:cluster's CPU_PROFILE_DIR: --cpu-prof). */
  readonly nodeArgs?: readonly string[];
}

/** Starts one process and resolves once it listens. */
export const startProcess = (o: ProcessOptions): Promise<ClusterProcess> => {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), "--import", "tsx", "simulator/start.ts"], {
    cwd: root,
    env: { ...process.env, HEADSETS: "0", HOST: "127.0.0.1", ...o.env, PORT: String(o.port), DATABASE_URL: o.databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const url = `http://127.0.0.1:${o.port}`;
  const proc: ClusterProcess = {
    number: o.number,
    port: o.port,
    url,
    deviceUrl: `ws://127.0.0.1:${o.port}/device`,
    child,
    exited,
    output: () => out,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`process ${o.number} (port ${o.port}) did not start within ${(o.timeoutMs ?? 120_000) / 1000} s:\n${out}`));
    }, o.timeoutMs ?? 120_000);
    let partial = "";
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      partial += chunk.toString();
      const lines = partial.split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        o.onLine?.(line);
        if (line.startsWith("Isopter listening on")) {
          clearTimeout(timer);
          resolve(proc);
        }
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`process ${o.number} (port ${o.port}) exited (${code}) before listening:\n${out}`));
    });
  });
};

/**
 * `ports.length` processes on one database: the first alone (it migrates and seeds the demo clinic on a new
 * database), then the others together. `envOf(i)` adds each one's environment (i 0-based).
 */
export const startProcesses = async (o: {
  databaseUrl: string;
  ports: readonly number[];
  envOf?: (index: number) => Record<string, string>;
  onLine?: (number: number, line: string) => void;
  timeoutMs?: number;
  nodeArgs?: readonly string[];
}): Promise<ClusterProcess[]> => {
  if (o.ports.length === 0) return [];
  const one = (i: number) =>
    startProcess({
      databaseUrl: o.databaseUrl,
      port: o.ports[i]!,
      number: i + 1,
      env: o.envOf?.(i) ?? {},
      ...(o.onLine ? { onLine: (line: string) => o.onLine!(i + 1, line) } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.nodeArgs ? { nodeArgs: o.nodeArgs } : {}),
    });
  const first = await one(0);
  const rest = await Promise.allSettled(o.ports.slice(1).map((_, i) => one(i + 1)));
  const failed = rest.find((r) => r.status === "rejected");
  if (failed) {
    await Promise.all([first, ...rest.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))].map((p) => p.stop("SIGKILL")));
    throw (failed as PromiseRejectedResult).reason;
  }
  return [first, ...rest.map((r) => (r as PromiseFulfilledResult<ClusterProcess>).value)];
};
