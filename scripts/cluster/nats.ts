// Debian's nats-server for a local cluster (start:cluster with NATS=1, the cluster suite and the bus tests on NATS,
// bench:cluster): a process of its own on 127.0.0.1 and a free port, never the system service the package may run on
// 4222. It keeps nothing on disk (no JetStream), so a restart on the same port is a broker back from an outage.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { freePort } from "./processes.ts";

/** The nats-server binary (Debian puts it in /usr/sbin, often not on a user's PATH), or undefined when not installed. */
export const natsBinary = (): string | undefined => {
  for (const p of ["/usr/sbin/nats-server", "/usr/local/bin/nats-server", "/usr/bin/nats-server"]) if (existsSync(p)) return p;
  try {
    return execFileSync("sh", ["-c", "command -v nats-server"]).toString().trim() || undefined;
  } catch {
    return undefined;
  }
};

export interface LocalNats {
  /** nats://127.0.0.1:PORT, what NATS_URL takes. */
  readonly url: string;
  readonly port: number;
  /** SIGTERM; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGKILL at once (a broker crash); `restart` brings it back. */
  kill(): void;
  /** Stops it if it runs, then starts it again on the same port; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** What it printed (its log), for a failing test to show. */
  output(): string;
}

/** Whether a NATS server answers on the port: it greets every new connection with an INFO line. */
const greets = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (chunk) => done(chunk.toString().startsWith("INFO")));
  });

const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once("exit", () => r()));

/** Starts nats-server on 127.0.0.1 and a free port (or `port`) and resolves once it accepts connections. */
export const startNats = async (o: { port?: number; binary?: string; timeoutMs?: number } = {}): Promise<LocalNats> => {
  const binary = o.binary ?? natsBinary();
  if (!binary)
    throw new Error("nats-server is not installed (Debian: apt-get install nats-server; scripts/system-deps.sh does it as root)");
  const port = o.port ?? (await freePort());
  const timeoutMs = o.timeoutMs ?? 10_000;
  let out = "";
  let child: ChildProcess | undefined;

  const launch = async () => {
    const c = spawn(binary, ["-a", "127.0.0.1", "-p", String(port), "-n", `isopter-test-${port}`], { stdio: ["ignore", "pipe", "pipe"] });
    child = c;
    c.stdout!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
    c.stderr!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
    for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
      if (c.exitCode !== null || c.signalCode !== null) throw new Error(`nats-server on port ${port} exited at start:\n${out}`);
      if (await greets(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    c.kill("SIGKILL");
    throw new Error(`nats-server on port ${port} did not accept connections within ${timeoutMs / 1000} s:\n${out}`);
  };
  const stop = async () => {
    const c = child;
    if (!c) return;
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
    await exitOf(c);
  };

  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    kill: () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
    async restart() {
      await stop();
      await launch();
    },
    output: () => out,
  };
};
