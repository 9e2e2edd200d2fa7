import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { isLiveEvent, type LiveEvent, type LiveMessage } from "../../../core/model/live.ts";
import type { MeasurementBody } from "../../../core/model/measurement.ts";
import { startNats, type LocalNats } from "../../../scripts/cluster/nats.ts";
import { seedDemo } from "../../../simulator/server/demo/seed.ts";
import { startServer, type RunningServer, type ServerOptions } from "../../../simulator/server/server.ts";
import { DEMO_PASSWORD, testStorage } from "../harness.ts";

// Several server processes on one PostgreSQL database (issue 17), as server instances in this test process, each
// with its own pool and listening connection, on free ports. They share nothing but the database, and on the NATS bus
// (issue 32 §2) a nats-server of their own.

export const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** The suite, or one skipped test saying why. */
export const onPostgres = (name: string, suite: () => void) =>
  hasPostgres ? describe(name, suite) : describe(name, () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));

/** The buses processes talk over (issue 32 §2): "The cluster suite runs on both." */
export type BusKind = "postgres" | "nats";
export const BUSES: readonly BusKind[] = ["postgres", "nats"];
/** The suite once per bus, each named by it (or skipped saying why). */
export const onBuses = (name: string, suite: (bus: BusKind) => void) => {
  for (const bus of BUSES) onPostgres(`${name} (bus: ${bus})`, () => suite(bus));
};

export interface Processes {
  readonly servers: RunningServer[];
  readonly url: string;
  /** The nats-server the processes talk over on the NATS bus. */
  readonly nats: LocalNats | undefined;
  /** What a child process (startProcess) needs besides DATABASE_URL to join them: NATS_URL on the NATS bus. */
  readonly env: Record<string, string>;
  /** One more process on the same database. */
  start(options?: Partial<ServerOptions>): Promise<RunningServer>;
  close(): Promise<void>;
}

export const startProcesses = async (
  count: number,
  options: Partial<ServerOptions> = {},
  bus: BusKind = "postgres",
): Promise<Processes> => {
  const { storage, drop } = await testStorage("postgres");
  const nats = bus === "nats" ? await startNats() : undefined;
  const servers: RunningServer[] = [];
  const start = async (more: Partial<ServerOptions> = {}) => {
    const s = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", natsUrl: nats?.url, ...options, ...more });
    servers.push(s);
    return s;
  };
  await seedDemo((await start()).db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
  for (let i = 1; i < count; i++) await start();
  if (storage.kind !== "postgres") throw new Error("postgres only");
  return {
    servers,
    url: storage.url,
    nats,
    env: nats ? { NATS_URL: nats.url } : {},
    start,
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await nats?.stop();
      await drop();
    },
  };
};

export const isEvent =
  (type: string, operation: string, test: (e: LiveEvent) => boolean = () => true) =>
  (m: LiveMessage) =>
    isLiveEvent(m) && m.type === type && m.operation === operation && test(m);

export const measurementBody = (patientId: string, deviceSn: string): MeasurementBody =>
  measurementConfigWith({ patientId, deviceSn, displayName: "Test", eye: Eye.Right, pattern: Pattern.P24_2, strategy: Strategy.DS });

/** A patient as a patient update event carries it (the bus decodes each event by its type and operation). */
export const patientNamed = (id: string) => {
  const now = new Date().toISOString();
  return {
    id,
    name: id,
    uniqueId: `U-${id}`,
    gender: 0,
    lang: "en",
    birthdate: "1960-01-01",
    createdAt: now,
    updatedAt: now,
    trashedAt: null,
  } as const;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const until = async (what: string, test: () => boolean | Promise<boolean>, timeoutMs = 5_000) => {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(25);
  }
  return Date.now() - start;
};

/** `simulator/start.ts` as a cluster process runs it (DATABASE_URL, its own PORT, HEADSETS=0 unless given), in a
 * child process the test may kill; resolves once it listens. */
export const startProcess = (databaseUrl: string, env: Record<string, string> = {}) =>
  new Promise<{ child: ChildProcess; url: string; output: () => string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "simulator/start.ts"], {
      cwd: fileURLToPath(new URL("../../../", import.meta.url)),
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HEADSETS: "0", DEMO_PASSWORD, DATABASE_URL: databaseUrl, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const take = (d: Buffer) => {
      out += d.toString();
      const m = /Isopter listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out });
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.once("exit", (code) => reject(new Error(`simulator/start.ts exited ${code}: ${out}`)));
  });
