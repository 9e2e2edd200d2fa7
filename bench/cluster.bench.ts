// npm run bench:cluster (issue 32 §3 and §4): what the cluster costs as it scales out, on both buses (PostgreSQL's
// LISTEN/NOTIFY, and NATS: each process started with NATS_URL naming a nats-server of the bench's own). Prints, never
// asserts; run by hand on a quiet machine (about 26 minutes on 2 cores with the defaults), not in npm test.
//
// Per bus, for 1 and then 3 processes at the same load: an idle window (browsers connected, no headsets), then a window
// at each HEADSETS step. The headsets belong to LOAD_ORGS organisations (headset i to organisation i mod LOAD_ORGS);
// organisation k's browser (one live socket of its manager) is on process k mod 3. With 3 processes the headsets are
// placed two ways (PLACEMENTS), each a cluster of its own: "organisation", on their organisation's process, as the
// deployed nginx places every socket that names its organisation (deploy/nginx/isopter.conf; nothing crosses the bus
// but what a browser elsewhere asks for); and "apart", on the other two processes alternately, so every event of
// theirs crosses the bus (the worst case: a headset that has not yet learnt its route, or a proxy without the
// route rule). With one process nothing crosses. Each headset beats every second; every STREAM_EVERY-th of an organisation also streams progress PROGRESS_HZ times a second with cumulative
// thresholds, as real headsets do (bench/fleet.ts). The headsets are played by FLEETS processes of their own
// (bench/cluster/fleet-processes.ts), as independent as real headsets are (one process playing them all woke every
// server at each of its turns), except every TIMED_EVERY-th streaming one, which the bench plays itself and whose
// frames it times. Per window it prints the Isopter processes' cores (each process
// by pid) and per 1,000 headsets, how often each was woken from sleep a second, the bench's PostgreSQL and nats-server separately, the bench itself and the machine,
// the messages crossing the bus per second (the processes' /api/ready bus.sent, summed), the live threshold latency
// from a headset's frame to its organisation's browser (on another process with 3), and the load average.
// Then per bus: CPU per 1,000 headsets with 1 and 3 processes, the scale-out efficiency (1 process's cores / 3
// processes' total, aim >= 0.85), events crossing per second, the cross-process p99 at AIM_HEADSETS (aim <= 50 ms),
// and a capacity model (bench/cluster/model.ts: cores = a·headsets + b·bus events/s + c·processes, least squares over
// every window) beside each measured window, predicting headsets per core for N processes on N cores.
// Tenancy (§4): TENANCY_ORGS organisations of TENANCY_HEADSETS headsets on 3 processes, one browser each, placed as
// above (TENANCY_PLACEMENT, "organisation" unless told "apart"), TENANCY_STREAMING of them streaming: every event a
// browser hears must name a headset of its organisation (crossings, printed; must be 0), and the p99 at that load.
//
// The organisations, managers and headsets (with device credentials) are made once in a template database before
// anything is measured (bench/cluster/setup.ts); every cluster runs on a fresh copy of it.
// Environment: BENCH_DATABASE_URL (else a throwaway PostgreSQL, scripts/pg-throwaway.sh, stopped at the end),
// BUSES (postgres,nats; nats needs Debian's nats-server), HEADSETS (1000,3000), AIM_HEADSETS (3000), LOAD_ORGS (30),
// STREAM_EVERY (10), PROGRESS_HZ (5), WINDOW_S seconds measured per window (20), SETTLE_S longest wait for headsets to
// connect (60), TENANCY (1; 0 skips it), TENANCY_ORGS (1000), TENANCY_HEADSETS per organisation (10),
// TENANCY_STREAMING (300), PLACEMENTS (organisation,apart), TENANCY_PLACEMENT (organisation), ROUNDS (3: the 1
// process and the 3 measured again that many times, one after the other, and each figure's median taken: on a shared
// machine one window of a minute varies by a third), RAMP_PER_S headsets connected a second (500; TENANCY_RAMP_PER_S
// 200). Headsets whose socket closes (refused while the cluster was busy, say) connect again 2-4 s later, as real
// ones do. FLEETS (3): the processes playing the headsets (0: the bench plays every headset itself, as before
// 2026-11-29); TIMED_EVERY (5): every so many streaming headsets, one is the bench's own, its frames timed.
// A NATS_URL in the bench's own environment is ignored: the bench starts its own broker.
// CPU_PROFILE_DIR (none): every Isopter process runs with --cpu-prof and writes its profile into a folder per cluster
// there (<bus>-1p, <bus>-3p-<placement>; later rounds' with -round<N>), with the windows' times (windows.json);
// `npx tsx bench/cluster/profile-diff.ts DIR` then says which functions the 3 processes spend more time in than the 1,
// per window. The profiler costs CPU itself: the figures of a profiled run are not the bench's.
import { startNats, type LocalNats } from "../scripts/cluster/nats.ts";
import { loadAverage } from "./figures.ts";
import { growFleet } from "./fleet.ts";
import { benchPostgres } from "./postgres.ts";
import { summary, WINDOW_HEADER, windowLine } from "./cluster/report.ts";
import { cloneDatabase, dropDatabase, logins, orgKey, prepareTemplate, type BenchData, type BenchOrg } from "./cluster/setup.ts";
import { startCluster, type BusKind, type Placement, type Window } from "./cluster/stage.ts";

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const numbers = (name: string, fallback: string) => env(name, fallback).split(",").map(Number);
const buses = env("BUSES", "postgres,nats").split(",") as BusKind[];
const steps = numbers("HEADSETS", "1000,3000");
const aimHeadsets = Number(env("AIM_HEADSETS", "3000"));
const loadOrgs = Number(env("LOAD_ORGS", "30"));
const streamEvery = Number(env("STREAM_EVERY", "10"));
const progressHz = Number(env("PROGRESS_HZ", "5"));
const windowS = Number(env("WINDOW_S", "20"));
const settleS = Number(env("SETTLE_S", "60"));
const tenancy = env("TENANCY", "1") !== "0";
const placements = env("PLACEMENTS", "organisation,apart").split(",") as Placement[];
const tenancyPlacement = env("TENANCY_PLACEMENT", "organisation") as Placement;
const rounds = Number(env("ROUNDS", "3"));
for (const p of [...placements, tenancyPlacement])
  if (p !== "organisation" && p !== "apart") throw new Error(`PLACEMENTS and TENANCY_PLACEMENT take organisation or apart, not "${p}"`);
/** Where each process writes a V8 CPU profile (one folder per cluster), for bench/cluster/profile-diff.ts. */
const profileDir = process.env.CPU_PROFILE_DIR;
const tenancyOrgs = Number(env("TENANCY_ORGS", "1000"));
const tenancyHeadsets = Number(env("TENANCY_HEADSETS", "10"));
const tenancyStreaming = Number(env("TENANCY_STREAMING", "300"));
const rampPerS = Number(env("RAMP_PER_S", "500"));
const tenancyRampPerS = Number(env("TENANCY_RAMP_PER_S", "200"));
const fleets = Number(env("FLEETS", "3"));
const timedEvery = Number(env("TIMED_EVERY", "5"));
delete process.env.NATS_URL;

const TEMPLATE = "isopter_bench_cluster_template";
const RUN = "isopter_bench_cluster_run";

/**
 * Where a headset goes: organisation k's browser is on process k mod n; its j-th headset there too ("organisation"),
 * or on one of the others in turn ("apart"); with one process, there.
 */
const processOf = (n: number, placement: Placement, org: number, j: number) =>
  n === 1 || placement === "organisation" ? org % n : ((org % n) + 1 + (j % (n - 1))) % n;

interface Context {
  readonly base: string;
  readonly postgresPort: number;
  readonly data: BenchData;
}

/** One cluster: its browsers of `orgs` logged in, then headsets added per step (round-robin over `orgs`), measured. */
const runCluster = async (
  c: Context,
  bus: BusKind,
  nats: LocalNats | undefined,
  n: number,
  placement: Placement,
  round: number,
  orgs: readonly BenchOrg[],
  kind: "L" | "T",
  plan: { steps: readonly number[]; idle: boolean; streams: (org: number, j: number) => boolean; rampPerS: number },
): Promise<Window[]> => {
  const db = await cloneDatabase(c.base, TEMPLATE, RUN);
  const cluster = await startCluster({
    databaseUrl: db.url,
    processes: n,
    placement,
    round,
    bus,
    progressHz,
    fleetProcesses: fleets,
    timedEvery,
    postgresPort: c.postgresPort,
    ...(nats ? { natsUrl: nats.url, natsPort: nats.port } : {}),
    ...(profileDir
      ? {
          profileDir: `${profileDir}/${bus}-${kind === "T" ? "tenancy" : `${n}p`}${n === 1 ? "" : `-${placement}`}${round > 1 ? `-round${round}` : ""}`,
        }
      : {}),
  });
  const windows: Window[] = [];
  try {
    if (!cluster.kinds.split(",").every((k) => k === bus))
      console.log(
        `  (the processes report bus "${cluster.kinds}", not ${bus}: this build does not run that bus; figures are of "${cluster.kinds}")`,
      );
    const tokens = await logins(
      orgs.map((o) => o.username),
      (i) => cluster.procs[i % n]!.url,
    );
    for (const [k, o] of orgs.entries()) await cluster.browser(k % n, tokens[k]!, orgKey(kind, o.index));
    const streamingOf = (h: number) =>
      Array.from({ length: h }, (_, i) => plan.streams(i % orgs.length, Math.floor(i / orgs.length))).filter(Boolean).length;
    if (plan.idle) {
      const w = await cluster.measure(`VR-${kind}`, 0, windowS);
      console.log(windowLine(bus, w, 0));
      windows.push(w);
    }
    let started = 0;
    for (const h of plan.steps) {
      started = await growFleet(
        started,
        h,
        (i) => {
          const k = i % orgs.length;
          const j = Math.floor(i / orgs.length);
          const sn = orgs[k]!.serials[j]!;
          cluster.connect(processOf(n, placement, k, j), sn, c.data.credentials.get(sn)!, plan.streams(k, j));
        },
        { batch: 50, pauseMs: 50_000 / plan.rampPerS },
      );
      await cluster.settle(`VR-${kind}`, h, settleS);
      const w = await cluster.measure(`VR-${kind}`, h, windowS);
      console.log(windowLine(bus, w, streamingOf(h)));
      windows.push(w);
    }
  } finally {
    const troubles = await cluster.troubles();
    if (troubles) console.log(`  (${bus}, ${n} process${n === 1 ? "" : "es"}: the processes logged ${troubles})`);
    await cluster.stop();
    await db.drop();
  }
  return windows;
};

const main = async () => {
  const pg = await benchPostgres();
  if (!pg) {
    console.log("bench:cluster needs PostgreSQL: set BENCH_DATABASE_URL, or install it (apt-get install postgresql) for a throwaway one.");
    return;
  }
  try {
    const maxStep = Math.max(0, ...steps);
    const started = performance.now();
    const data = await prepareTemplate(pg.url, TEMPLATE, {
      loadOrgs,
      loadPerOrg: Math.ceil(maxStep / loadOrgs),
      tenancyOrgs: tenancy ? tenancyOrgs : 0,
      tenancyPerOrg: tenancyHeadsets,
    });
    const c: Context = { base: pg.url, postgresPort: Number(new URL(pg.url).port || 5432), data };
    console.log(
      `bench:cluster on ${pg.origin}: buses ${buses.join(", ")}; 1 and 3 processes; headsets ${steps.join(", ")} of ${loadOrgs} organisations ` +
        `(every ${streamEvery}th streaming progress ${progressHz} times a second); ${windowS} s windows; ` +
        `${tenancy ? `tenancy ${tenancyOrgs} organisations x ${tenancyHeadsets} headsets (${tenancyStreaming} streaming)` : "no tenancy run"}; ` +
        `template made in ${((performance.now() - started) / 1000).toFixed(0)} s (load average ${loadAverage()})`,
    );
    console.log(WINDOW_HEADER);
    const summaries: string[] = [];
    for (const bus of buses) {
      const nats = bus === "nats" ? await startNats() : undefined;
      try {
        const windows: Window[] = [];
        const load = { steps, idle: true, streams: (_k: number, j: number) => j % streamEvery === 0, rampPerS };
        // Round after round, so that a slow minute of a shared machine falls on one round, not on one process count.
        for (let round = 1; round <= rounds; round++) {
          windows.push(...(await runCluster(c, bus, nats, 1, "organisation", round, data.load, "L", load)));
          for (const placement of placements) windows.push(...(await runCluster(c, bus, nats, 3, placement, round, data.load, "L", load)));
        }
        const spacing = Math.max(1, Math.floor(tenancyOrgs / Math.max(1, tenancyStreaming)));
        const t = tenancy
          ? (
              await runCluster(c, bus, nats, 3, tenancyPlacement, 1, data.tenancy, "T", {
                steps: [tenancyOrgs * tenancyHeadsets],
                idle: false,
                streams: (k, j) => j === 0 && k % spacing === 0 && k / spacing < tenancyStreaming,
                rampPerS: tenancyRampPerS,
              })
            )[0]
          : undefined;
        summaries.push(...summary(bus, windows, t && { window: t, orgs: tenancyOrgs }, aimHeadsets));
      } finally {
        await nats?.stop();
      }
    }
    console.log("");
    for (const line of summaries) console.log(line);
    console.log(`Run in ${((performance.now() - started) / 60_000).toFixed(1)} min; load average ${loadAverage()}.`);
  } finally {
    await dropDatabase(pg.url, TEMPLATE).catch(() => undefined);
    pg.stop();
  }
};

void main();
