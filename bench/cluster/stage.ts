// One cluster of bench:cluster: N Isopter processes on a copy of the template database, on the chosen bus, with
// browsers' live sockets and protocol-level headsets placed by the caller, and measurement windows over it.
import { mkdirSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import WebSocket from "ws";
import { consecutivePorts, startProcesses, type ClusterProcess } from "../../scripts/cluster/processes.ts";
import { loadAverage, sleep } from "../figures.ts";
import { protocolFleet } from "../fleet.ts";
import { beforeInterruptExit } from "../postgres.ts";
import { fleetProcesses } from "./fleet-processes.ts";
import { clusterCpu, type Cores } from "./cpu.ts";
import { orgOfSerial, PASSWORD } from "./setup.ts";

export type BusKind = "postgres" | "nats";
/** Where a cluster's headsets are: on their organisation's process (as nginx places them by their route), or apart
 * from it (every event of theirs crossing the bus). */
export type Placement = "organisation" | "apart";

/**
 * A browser of organisation `org` (its key, "L7") on a live socket: times each progress frame against the moment its
 * headset sent it (`sentAt`), and counts the events it hears and those naming a headset of another organisation.
 */
const browserOf = async (url: string, accessToken: string, org: string, sentAt: Map<string, number>) => {
  let latencies: number[] = [];
  let events = 0;
  let crossings = 0;
  let unnamed = 0;
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/ws`);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  socket.send(JSON.stringify({ type: "logged_in", accessToken, message: "bench" }));
  socket.on("message", (d) => {
    const m = JSON.parse(d.toString()) as {
      type?: string;
      operation?: string;
      deviceSn?: string;
      data?: { deviceSn?: string; perimetryId?: string; nTested?: number };
    };
    if (typeof m.type !== "string" || typeof m.operation !== "string") return; // control messages, not events
    events++;
    const sn = m.deviceSn ?? m.data?.deviceSn;
    const owner = sn === undefined ? undefined : orgOfSerial(sn);
    if (owner === undefined) unnamed++;
    else if (owner !== org) crossings++;
    if (m.operation !== "measurement_progress" || !m.data?.perimetryId) return;
    const key = `${m.data.perimetryId}/${m.data.nTested}`;
    const t = sentAt.get(key);
    if (t !== undefined) {
      latencies.push(performance.now() - t);
      sentAt.delete(key);
    }
  });
  socket.on("error", () => undefined);
  let closedBy: string | undefined;
  socket.on("close", (code, reason) => void (closedBy = `${code} ${reason.toString()}`));
  const take = () => {
    const taken = { latencies, events, crossings, unnamed, closedBy };
    latencies = [];
    events = crossings = unnamed = 0;
    return taken;
  };
  return { take, close: () => socket.terminate() };
};

/** What one window measured. */
export interface Window {
  readonly processes: number;
  readonly placement: Placement;
  /** Which round of the bench's 1-and-3-process sequence (ROUNDS) measured it. */
  readonly round: number;
  readonly headsets: number;
  /** The fewest headsets the database showed held (device_presence) over the window. */
  readonly held: number;
  readonly cores: Cores;
  /** Messages the processes sent each other per second (their /api/ready bus.sent, summed). */
  readonly crossing: number;
  /** Frame-to-browser latencies, ascending. */
  readonly latencies: number[];
  readonly events: number;
  readonly crossings: number;
  readonly unnamed: number;
  /** Browsers whose socket the server closed, and why (the first reason). */
  readonly browsersClosed: number;
  readonly closedBy: string | undefined;
  /** The bench's own event-loop delay p99 and max (ms): high means the player, not the cluster, was short of CPU. */
  readonly benchDelayMs: number;
  readonly benchDelayMaxMs: number;
  /** Each process's slowest answer to /api/health (ms), asked every PROBE_MS: a process that stalls shows here;
   * undefined when an ask failed (the process gone or refusing). */
  readonly answerMaxMs: Array<number | undefined>;
  readonly load: string;
}

/** A measured window of a profiled cluster: its headsets and its span on the profiles' clock. */
export interface ProfiledWindow {
  readonly headsets: number;
  readonly from: number;
  readonly to: number;
  readonly pids: readonly number[];
}

/** How often the bench asks each process for its health during a window: 4 requests a second, next to nothing of
 * its CPU beside thousands of frames. */
const PROBE_MS = 250;
/** A headset whose socket closed connects again after 1 to 2 times this, as real ones do. */
const RECONNECT_MS = 2_000;
/** Frames count as flowing once every timed one of a second arrived within this. */
const FLOWING_MS = 250;

/** Each process's slowest answer to /api/health until `end`: a stall of the process, as distinct from the bench's. */
const probeAnswers = (urls: readonly string[], end: number) =>
  Promise.all(
    urls.map(async (url) => {
      let slowest = 0;
      while (performance.now() < end) {
        const asked = performance.now();
        const answered = await fetch(`${url}/api/health`).then(
          (r) => r.arrayBuffer().then(() => r.ok),
          () => false,
        );
        if (!answered) return undefined;
        slowest = Math.max(slowest, performance.now() - asked);
        await sleep(Math.max(0, Math.min(PROBE_MS, end - performance.now())));
      }
      return slowest;
    }),
  );

export const startCluster = async (o: {
  databaseUrl: string;
  processes: number;
  placement: Placement;
  round: number;
  bus: BusKind;
  natsUrl?: string;
  postgresPort?: number;
  natsPort?: number;
  progressHz: number;
  /** Processes of their own playing the headsets (fleet-processes.ts); 0: the bench plays them itself. */
  fleetProcesses: number;
  /** With fleets, every timedEvery-th streaming headset is the bench's own, its frames timed; the others' are not. */
  timedEvery: number;
  /** Each process writes a V8 CPU profile here when it stops, and the windows' times go to windows.json. */
  profileDir?: string;
}) => {
  if (o.profileDir) mkdirSync(o.profileDir, { recursive: true });
  const procs: ClusterProcess[] = await startProcesses({
    databaseUrl: o.databaseUrl,
    ports: await consecutivePorts(o.processes),
    envOf: () => ({ DEMO_PASSWORD: PASSWORD, HEADSETS: "0", ...(o.bus === "nats" ? { NATS_URL: o.natsUrl! } : {}) }),
    ...(o.profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${o.profileDir}`] } : {}),
  });
  const fleetProcs = fleetProcesses(o.fleetProcesses, { reconnectMs: RECONNECT_MS, progressMs: 1000 / o.progressHz });
  /** Streaming headsets connected so far: every timedEvery-th is the bench's own. */
  let streaming = 0;
  /** The windows measured, on the clock of the profiles' timestamps (the monotonic clock, microseconds). */
  const profiled: ProfiledWindow[] = [];
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  // On Ctrl-C (or a timeout's SIGTERM) the processes die with the bench, before its PostgreSQL stops.
  const forget = beforeInterruptExit(() => {
    for (const p of procs) p.child.kill("SIGKILL");
    fleetProcs.stop();
  });
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  const sentAt = new Map<string, number>();
  const fleets = procs.map((p) => protocolFleet(p.url, { progressMs: 1000 / o.progressHz, sentAt, reconnectMs: RECONNECT_MS }));
  const browsers: Array<Awaited<ReturnType<typeof browserOf>>> = [];

  const busFigures = async () =>
    Promise.all(
      procs.map(async (p) => {
        const ready = (await (await fetch(`${p.url}/api/ready`)).json()) as { data?: { bus?: { kind: string; sent: number } } };
        return ready.data?.bus ?? { kind: "none", sent: 0 };
      }),
    );
  /** The bus the processes say they run on (a build without the NATS transport runs PostgreSQL's whatever NATS_URL says). */
  const kinds = [...new Set((await busFigures()).map((b) => b.kind))].join(",");
  const held = async (prefix: string) =>
    (await db.query<{ n: number }>("select count(*)::int as n from device_presence where device_sn like $1", [`${prefix}%`])).rows[0]!.n;

  return {
    procs,
    kinds,
    /** A browser of organisation `org` on process `at` (0-based). */
    async browser(at: number, accessToken: string, org: string) {
      browsers.push(await browserOf(procs[at]!.url, accessToken, org, sentAt));
    },
    /** Headset `sn` on process `at`, streaming progress or beating only. */
    connect(at: number, sn: string, credential: string, streams: boolean) {
      const timed = streams && streaming++ % o.timedEvery === 0;
      if (timed || fleetProcs.count === 0) fleets[at]!.connect(sn, credential, streams, "credential");
      else fleetProcs.connect(procs[at]!.url, sn, credential, streams);
    },
    /** Waits until `count` headsets of `prefix` are held, `settleS` at most; the count held then. */
    async settle(prefix: string, count: number, settleS: number) {
      const end = performance.now() + settleS * 1000;
      let n = await held(prefix);
      while (n < count && performance.now() < end) {
        await sleep(1_000);
        n = await held(prefix);
      }
      // Held is not yet settled: at the end of a ramp of thousands, frames arrived seconds late for a few seconds more
      // (most likely waiting behind their headset's hello's database work: device-socket.ts handles a headset's
      // messages in order). The window starts once a whole second's timed frames each arrived within FLOWING_MS.
      const heldAt = performance.now();
      let slowest = 0;
      while (streaming > 0 && performance.now() < end) {
        await sleep(1_000);
        const heard = browsers.flatMap((b) => b.take().latencies);
        if (heard.length > 0 && Math.max(...heard) < FLOWING_MS) break;
        slowest = Math.max(slowest, ...heard);
      }
      const waited = (performance.now() - heldAt) / 1000;
      if (slowest > 0)
        console.log(`  (${count} held; frames flowed ${waited.toFixed(0)} s later, the slowest meanwhile ${slowest.toFixed(0)} ms)`);
      await sleep(2_000);
      return n;
    },
    /** Measures `windowS` seconds with `headsets` of `prefix` meant to be connected. */
    async measure(prefix: string, headsets: number, windowS: number): Promise<Window> {
      for (const b of browsers) b.take();
      const sentBefore = (await busFigures()).reduce((s, b) => s + b.sent, 0);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const began = performance.now();
      const from = monotonicUs();
      const cpu = clusterCpu({
        serverPids: procs.map((p) => p.child.pid!),
        fleetPids: fleetProcs.pids(),
        ...(o.postgresPort !== undefined ? { postgresPort: o.postgresPort } : {}),
        ...(o.natsPort !== undefined ? { natsPort: o.natsPort } : {}),
      });
      let least = Infinity;
      const end = began + windowS * 1000;
      const answers = probeAnswers(
        procs.map((p) => p.url),
        end,
      );
      while (performance.now() < end) {
        least = Math.min(least, await held(prefix));
        await sleep(Math.min(2_000, Math.max(0, end - performance.now())));
      }
      const answerMaxMs = await answers;
      const cores = cpu.take();
      if (o.profileDir) {
        profiled.push({ headsets, from, to: monotonicUs(), pids: procs.map((p) => p.child.pid!) });
        writeFileSync(`${o.profileDir}/windows.json`, JSON.stringify(profiled, null, 1));
      }
      const sent = (await busFigures()).reduce((s, b) => s + b.sent, 0) - sentBefore;
      const seconds = (performance.now() - began) / 1000;
      loop.disable();
      const taken = browsers.map((b) => b.take());
      return {
        processes: procs.length,
        placement: o.placement,
        round: o.round,
        headsets,
        held: least,
        cores,
        crossing: sent / seconds,
        latencies: taken.flatMap((t) => t.latencies).sort((a, b) => a - b),
        events: taken.reduce((s, t) => s + t.events, 0),
        crossings: taken.reduce((s, t) => s + t.crossings, 0),
        unnamed: taken.reduce((s, t) => s + t.unnamed, 0),
        browsersClosed: taken.filter((t) => t.closedBy !== undefined).length,
        closedBy: taken.find((t) => t.closedBy !== undefined)?.closedBy,
        benchDelayMs: loop.percentile(99) / 1e6,
        benchDelayMaxMs: loop.max / 1e6,
        answerMaxMs,
        load: loadAverage(),
      };
    },
    /** The warnings and errors the processes logged so far, by event ("process_rejoined x2"): what went wrong, if anything. */
    async troubles() {
      const counts = new Map<string, number>();
      for (const p of procs)
        for (const m of p.output().matchAll(/^isopter (?:warn|error) (\S+)/gm)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
      const reconnects = fleets.reduce((sum, f) => sum + f.reconnects(), 0) + (await fleetProcs.reconnects());
      if (reconnects > 0) counts.set("(bench) headset sockets closed and connected again", reconnects);
      return [...counts].map(([event, n]) => `${event} x${n}`).join(", ");
    },
    async stop() {
      for (const f of fleets) f.stop();
      fleetProcs.stop();
      for (const b of browsers) b.close();
      forget();
      await db.end().catch(() => undefined);
      // A killed process writes no profile: with profiling, they drain and exit.
      await Promise.all(procs.map((p) => p.stop(o.profileDir ? "SIGTERM" : "SIGKILL")));
    },
  };
};

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
