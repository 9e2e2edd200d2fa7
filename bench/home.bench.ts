// npm run bench:home (issue 31 §4): home headsets uploading through bad home networks, against one process and against
// the cluster (3 processes on one PostgreSQL). Prints, never asserts; run by hand on a quiet machine, not in npm test.
//
// Each run: a fresh database on the bench's PostgreSQL (BENCH_DATABASE_URL, else a throwaway one), its processes
// (scripts/cluster/processes.ts, exactly what `npm start` runs), HEADSETS homes made through the API (a patient, a
// headset enrolled with its credential, a weekly home programme of 24-2 DS binding the two: bench/home/homes.ts),
// and one virtual headset per home in home mode (its patient skips, stops midway, misunderstands or lets the headset
// slip: simulator/perimetry/home-behaviour.ts HOME_LAPSES), each reaching the server only through its own home network
// on the fault proxy (simulator/network/fault-proxy.ts; with 3 processes the proxy hands connections to them in turn).
// Sessions are compressed in time: the test runs SPEED times faster than real time and a session follows GAP_S after
// the last (a week at home: the headset's calendar moves on a session, simulator/headset/home-sessions.ts). No result
// is dated in the future (the server refuses those): each programme starts WINDOW_S / GAP_S + 1 weeks before today,
// more than a headset can sit in the window, and the headset's calendar runs from its first session and never past
// the real now; the sessions it does not reach are missed, as at home (review items and reminders). For
// WINDOW_S the homes' networks misbehave at random (FAULTS below: delays of 100-400 ms a chunk, stalls, cuts of 30 s
// to 10 min refusing or blackholing, half-open links, repeated frames); then no new session starts, the runs under way end (their results uploaded through the same faults), then every fault
// ends and the bench waits (at most DRAIN_S in all) for every outbox to empty.
// It prints: results made, uploaded, lost (must be 0), doubled (must be 0; rows counted in the database per result:
// bench/home/count.ts), the upload delay after reconnection (from the welcome after a lost link to the server's
// acknowledgement, for each result pending then; p50/p99), the review queue's size and flags by kind where the server
// has them, the proxy's counters and the load average (the machine is shared).
// Environment: HEADSETS (1000), SPEED (10), GAP_S (15), WINDOW_S (150), DRAIN_S (240), RUNS (single,cluster),
// FAULT_SCALE (1: every random fault rate multiplied by it, for short runs with few homes), MODE (programme: each
// headset lent for a weekly home programme, its sessions compressed in time on the programme's calendar; standalone:
// the seeds' stand-alone mode repeating the test, as before programmes existed).
import { performance } from "node:perf_hooks";
import { consecutivePorts, startProcesses } from "../scripts/cluster/processes.ts";
import { type FaultProxy, startFaultProxy } from "../simulator/network/fault-proxy.ts";
import type { NetworkFaultRates } from "../simulator/network/home-faults.ts";
import { HOME_LAPSES } from "../simulator/perimetry/home-behaviour.ts";
import { cpuSecondsOf } from "./cpu-split.ts";
import { loadAverage, percentile, sleep } from "./figures.ts";
import { growFleet } from "./fleet.ts";
import { reckon } from "./home/count.ts";
import { freshDatabase } from "./home/database.ts";
import { homeFleet } from "./home/fleet.ts";
import { type HomeMode, managerToken, prepareHomes } from "./home/homes.ts";
import { reviewQueueLine } from "./home/review.ts";
import { beforeInterruptExit, benchPostgres } from "./postgres.ts";

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const headsets = Number(env("HEADSETS", "1000"));
const speed = Number(env("SPEED", "10"));
const gapS = Number(env("GAP_S", "15"));
const windowS = Number(env("WINDOW_S", "150"));
const drainS = Number(env("DRAIN_S", "240"));
const runs = env("RUNS", "single,cluster").split(",") as Array<"single" | "cluster">;
const faultScale = Number(env("FAULT_SCALE", "1"));
const mode = env("MODE", "programme") as HomeMode;
const PASSWORD = "Bench-Home-1";
/** Weeks before today each programme starts: more sessions than a headset sits in the window (one per GAP_S at most). */
const weeksBack = Math.ceil(windowS / gapS) + 1;

/** Per home and hour of real time (ours): in a 150 s window about one home in six is cut, one in eight half-open. */
const FAULTS: Partial<NetworkFaultRates> = {
  delaySpellsPerHour: 6 * faultScale,
  delaySpellMs: [30_000, 120_000],
  stallsPerHour: 6 * faultScale,
  stallMs: [1_000, 10_000],
  cutsPerHour: 4 * faultScale,
  cutMs: [30_000, 600_000],
  refuseShare: 0.5,
  halfOpensPerHour: 3 * faultScale,
  repeatRate: Math.min(1, 0.01 * faultScale),
};

const ms = (x: number) => (Number.isNaN(x) ? "-" : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);

const proxyLine = (p: FaultProxy) => {
  const c = p.counters;
  return (
    `  proxy: ${c.connections} connections forwarded; ${c.cuts} cuts (${c.connectionsCut} connections dropped, ${c.refused} refused, ` +
    `${c.blackholed} blackholed, ${c.cutsEndedEarly} ended early when the networks healed); ${c.halfOpens} half-open spells ` +
    `(${c.connectionsHalfOpen} connections); ${c.stalls} stalls; ${c.delaySpells} delay spells (${c.delayedChunks} chunks delayed); ` +
    `${c.framesRepeated} of ${c.framesToServer} frames to the server repeated`
  );
};

const run = async (base: string, kind: "single" | "cluster") => {
  const n = kind === "single" ? 1 : 3;
  const db = await freshDatabase(base, `isopter_bench_home_${kind}`);
  const procs = await startProcesses({ databaseUrl: db.url, ports: await consecutivePorts(n), envOf: () => ({ DEMO_PASSWORD: PASSWORD }) });
  const stopAll = () => Promise.all(procs.map((p) => p.stop("SIGKILL")));
  const forget = beforeInterruptExit(() => void stopAll());
  try {
    const t = performance.now();
    const homes = await prepareHomes(procs[0]!.url, PASSWORD, headsets, `h${kind[0]}`, mode, weeksBack);
    console.log(
      `${kind}: ${n} process(es); ${homes.length} homes made in ${((performance.now() - t) / 1000).toFixed(0)} s (${loadAverage()})`,
    );
    const proxy = await startFaultProxy({ target: procs.map((p) => p.deviceUrl), rates: FAULTS, seed: `bench-home/${kind}` });
    const fleet = homeFleet(proxy, { speed, gapMs: gapS * 1000, behaviour: HOME_LAPSES });
    const start = performance.now();
    const cpu0 = { bench: process.cpuUsage(), isopter: procs.map((p) => cpuSecondsOf(p.child.pid!)) };
    await growFleet(0, homes.length, (i) => fleet.add(homes[i]!), { batch: 50, pauseMs: 1_000 });
    await sleep(Math.max(0, windowS * 1000 - (performance.now() - start)));
    const sessionCounts = () => {
      const sum = { skipped: 0, stopped: 0, done: 0, misunderstood: 0, slipped: 0 };
      for (const h of fleet.headsets) for (const [k, v] of Object.entries(h.home!.counts)) sum[k as keyof typeof sum] += v;
      return sum;
    };
    // Skipped as of the window's end: from then on every session is skipped on purpose (no new session starts).
    const skipped = sessionCounts().skipped;
    const windowLoad = loadAverage();
    const windowS_ = (performance.now() - start) / 1000;
    const benchCpu = process.cpuUsage(cpu0.bench);
    const cores = {
      bench: (benchCpu.user + benchCpu.system) / 1e6 / windowS_,
      isopter: procs.reduce((sum, p, i) => sum + cpuSecondsOf(p.child.pid!) - cpu0.isopter[i]!, 0) / windowS_,
    };
    // No new session; the runs under way end and upload through the same faults; then the networks heal.
    fleet.noMoreSessions();
    const drainStart = performance.now();
    while (fleet.testing() > 0 && performance.now() - drainStart < drainS * 1000) await sleep(1_000);
    proxy.quiet();
    while (!fleet.settled() && performance.now() - drainStart < drainS * 1000) await sleep(1_000);
    const drained = fleet.settled();
    const sessions = { ...sessionCounts(), skipped };
    const made = new Map(
      fleet.headsets.map((h) => [h.deviceSn, h.produced.flatMap((m) => (m.type === "standaloneResult" ? [m.resultId] : []))]),
    );
    const r = await reckon(db.url, made, new Set(fleet.refused.keys()));
    const reasons = new Map<string, number>();
    for (const why of fleet.refused.values()) reasons.set(why, (reasons.get(why) ?? 0) + 1);
    const delays = [...fleet.delays].sort((a, b) => a - b);
    console.log(
      [
        kind,
        n,
        `${sessions.done} done / ${sessions.stopped} stopped / ${sessions.skipped} skipped (${sessions.misunderstood} misunderstood, ${sessions.slipped} slipped)`,
        r.made,
        `${r.uploaded} (${r.homeResults} home results)`,
        `${r.refused}${reasons.size ? ` (${[...reasons].map(([w, k]) => `${w}: ${k}`).join(", ")})` : ""}`,
        r.lost,
        r.doubled,
        `${ms(percentile(delays, 50))} / ${ms(percentile(delays, 99))} (${delays.length})`,
        await reviewQueueLine(procs[0]!.url, await managerToken(procs[0]!.url, PASSWORD)),
        `${windowLoad} (window), ${loadAverage()} (end)`,
      ].join(" | "),
    );
    console.log(proxyLine(proxy));
    console.log(
      `  cores over the fault window: Isopter ${cores.isopter.toFixed(2)} (${n} process${n > 1 ? "es" : ""}), this bench ${cores.bench.toFixed(2)} (the headsets and the proxy)`,
    );
    console.log(
      `  drained in ${((performance.now() - drainStart) / 1000).toFixed(0)} s${
        drained
          ? ""
          : ` (NOT drained after ${drainS} s: ${fleet.headsets.filter((h) => h.pendingResults > 0).length} headsets still hold results, ${fleet.headsets
              .filter((h) => h.running)
              .map((h) => h.status)
              .join(", ")} still testing)`
      }; ` + `${r.unknown} stored results no headset made`,
    );
    fleet.stop();
    await proxy.close();
  } finally {
    await stopAll();
    forget();
    await db.drop();
  }
};

const main = async () => {
  const pg = await benchPostgres();
  if (!pg) {
    console.log("bench:home needs PostgreSQL (BENCH_DATABASE_URL or Debian's initdb for a throwaway one): nothing measured");
    return;
  }
  console.log(
    `Home headsets through the fault proxy (${pg.origin}): ${headsets} homes (${mode === "programme" ? `weekly home programmes from ${weeksBack} weeks back` : "stand-alone mode"}), tests at speed ${speed}, a session ${gapS} s after the last, ` +
      `faults for ${windowS} s, drain at most ${drainS} s; lapses ${JSON.stringify(HOME_LAPSES)}; network faults ${JSON.stringify(FAULTS)} (${loadAverage()})`,
  );
  console.log(
    "run | processes | sessions | results made | uploaded | refused | lost (must be 0) | doubled (must be 0) | upload delay after reconnection p50 / p99 (results) | review queue (size; flags by kind) | load average",
  );
  try {
    for (const kind of runs) await run(pg.url, kind);
  } finally {
    pg.stop();
  }
};

void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
