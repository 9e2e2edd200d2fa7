// What bench:cluster prints: a line per measured window, and per bus the summary the issue asks for (CPU per 1,000
// headsets, scale-out efficiency, events crossing the bus, the cross-process p99, the capacity model beside the
// measured points, tenancy), every figure beside the load average.
import { cpus } from "node:os";
import { loadAverage, percentile } from "../figures.ts";
import { fitCapacityModel, headsetsOn, predictCores, type CpuPoint } from "./model.ts";
import type { BusKind, Placement, Window } from "./stage.ts";

/** The rounds' middle value (of an even count, the upper one); NaN for none. */
const median = (xs: readonly number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const latency = (w: Window) =>
  w.latencies.length === 0
    ? "no frames"
    : `${f(percentile(w.latencies, 50), 1)} / ${f(percentile(w.latencies, 99), 1)} ms (${w.latencies.length} frames)`;

export const WINDOW_HEADER =
  "bus | round | processes | headsets placed | headsets (streaming) | held all window | Isopter cores (each process) | per 1,000 headsets | " +
  "wake-ups/s (each process) | PostgreSQL | nats-server | " +
  "bench | machine of " +
  `${cpus().length}` +
  " | bus events/s | live threshold to a browser (on another process with 3) p50 / p99 | slowest health answer (each process) | bench event-loop p99 / max | load average";

export const windowLine = (bus: BusKind, w: Window, streaming: number) =>
  [
    bus,
    w.round,
    w.processes,
    w.processes === 1 ? "–" : PLACED[w.placement],
    `${w.headsets} (${streaming})`,
    w.held,
    `${f(w.cores.servers)} (${w.cores.perProcess.map((c) => f(c)).join(" + ")})`,
    w.headsets > 0 ? f((w.cores.servers * 1000) / w.headsets) : "–",
    `${f(sum(w.cores.wakeups), 0)} (${w.cores.wakeups.map((n) => f(n, 0)).join(" + ")})`,
    f(w.cores.postgres),
    f(w.cores.nats),
    f(w.cores.bench),
    `${f(w.cores.machine)} (${f(w.cores.stolen)} stolen)`,
    f(w.crossing, 0),
    latency(w),
    w.answerMaxMs.map((n) => (n === undefined ? "failed" : `${f(n, 0)} ms`)).join(" + "),
    `${f(w.benchDelayMs, 0)} / ${f(w.benchDelayMaxMs, 0)} ms`,
    w.load,
  ]
    .join(" | ")
    .concat(w.browsersClosed > 0 ? ` | ${w.browsersClosed} browsers closed by the server (${w.closedBy})` : "");

const PLACED: Record<Placement, string> = {
  organisation: "with their organisation's browser",
  apart: "away from it (all cross)",
};

/** The summary of one bus: windows of 1 and 3 processes (idle first, then each HEADSETS step), and tenancy's. */
export const summary = (
  bus: BusKind,
  windows: readonly Window[],
  tenancy: { readonly window: Window; readonly orgs: number } | undefined,
  aimHeadsets: number,
) => {
  const out: string[] = [`Summary, ${bus} (load average ${loadAverage()}):`];
  /** The windows of n processes at h headsets (with 3, of one placement), one per round, in round order. */
  const at = (n: number, h: number, placement: Placement = "organisation") =>
    windows
      .filter((w) => w.processes === n && w.headsets === h && (n === 1 || w.placement === placement))
      .sort((x, y) => x.round - y.round);
  const cores = (ws: readonly Window[]) => median(ws.map((w) => w.cores.servers));
  const steps = [...new Set(windows.map((w) => w.headsets).filter((h) => h > 0))];
  const placements = [...new Set(windows.filter((w) => w.processes === 3).map((w) => w.placement))];
  const rounds = Math.max(0, ...windows.map((w) => w.round));
  out.push(`  (each figure the median of ${rounds} round${rounds === 1 ? "" : "s"}; the efficiency per round in brackets)`);
  for (const h of steps) {
    const one = at(1, h);
    const per = (ws: readonly Window[], n: number, placement: Placement) =>
      ws.length > 0
        ? `${f((cores(ws) * 1000) / h)} cores per 1,000 headsets (${f(((cores(ws) - cores(at(n, 0, placement))) * 1000) / h)} above idle), ` +
          `woken ${f(median(ws.map((w) => sum(w.cores.wakeups))), 0)} times a second in all`
        : "–";
    out.push(
      `  ${h} headsets: Isopter CPU: 1 process ${per(one, 1, "organisation")}; ` +
        `PostgreSQL ${f(median(one.map((w) => w.cores.postgres)))} cores, nats-server ${f(median(one.map((w) => w.cores.nats)))}`,
    );
    for (const placement of placements) {
      const three = at(3, h, placement);
      const each = three.flatMap((w) => {
        const mate = one.find((o) => o.round === w.round);
        return mate ? [mate.cores.servers / w.cores.servers] : [];
      });
      out.push(
        `    3 processes, headsets ${PLACED[placement]}: ${per(three, 3, placement)}; ` +
          `scale-out efficiency (1 process's cores / 3 processes') ${f(median(each))} (${each.map((e) => f(e)).join(", ")}; aim >= 0.85); ` +
          `events crossing the bus ${f(median(three.map((w) => w.crossing)), 0)}/s; PostgreSQL ${f(median(three.map((w) => w.cores.postgres)))} cores, ` +
          `nats-server ${f(median(three.map((w) => w.cores.nats)))}; load ${three.map((w) => w.load.split(" ")[0]).join(", ")}`,
      );
    }
  }
  const aim = at(3, aimHeadsets, "apart");
  const frames = aim.flatMap((w) => w.latencies).sort((x, y) => x - y);
  out.push(
    aim.length > 0
      ? `  live threshold p99, headset to a browser on another process (headsets apart), ${aimHeadsets} headsets on 3 processes: ${f(percentile(frames, 99), 1)} ms over every round (aim <= 50 ms; ${frames.length} frames; per round ${aim.map((w) => f(percentile(w.latencies, 99), 1)).join(", ")} ms)`
      : `  live threshold p99 to a browser on another process at ${aimHeadsets} headsets on 3 processes: not measured (add ${aimHeadsets} to HEADSETS and apart to PLACEMENTS)`,
  );
  out.push(...modelLines(windows));
  if (tenancy) {
    const t = tenancy.window;
    out.push(
      `  tenancy: ${tenancy.orgs} organisations, ${t.headsets} headsets on 3 processes ${PLACED[t.placement]}, ${t.held} held all window: ` +
        `${t.events} events heard by the organisations' browsers, ${t.crossings} of another organisation (must be 0), ` +
        `${t.unnamed} naming no headset; p50 / p99 ${latency(t)} (aim <= 50 ms); Isopter ${f(t.cores.servers)} cores, ` +
        `PostgreSQL ${f(t.cores.postgres)}, nats-server ${f(t.cores.nats)}, ${f(t.crossing, 0)} bus events/s; load ${t.load}`,
    );
  }
  return out;
};

/** The model fitted to every window of 1 and 3 processes, its prediction beside each, and headsets per core. */
const modelLines = (windows: readonly Window[]): string[] => {
  const points: CpuPoint[] = windows.map((w) => ({
    processes: w.processes,
    headsets: w.headsets,
    crossing: w.crossing,
    cores: w.cores.servers,
    allCross: w.processes > 1 && w.placement === "apart",
  }));
  const m = fitCapacityModel(points);
  if (!m) return ["  capacity model: not enough distinct points to fit (it needs windows with events crossing: PLACEMENTS with apart)"];
  const out = [
    `  capacity model (least squares over the ${points.length} windows above): Isopter cores = ${f(m.perHeadset * 1000, 3)} per 1,000 headsets ` +
      `+ ${f(m.perEvent * 1000, 3)} per 1,000 bus events/s + ${f(m.perProcess, 3)} per process; ${f(m.eventsPerHeadset, 2)} bus events/s per headset ` +
      "whose browser is on another process (the windows with headsets apart)",
    "    processes | headsets | bus events/s | measured cores | model's cores | model / measured",
  ];
  if (points.length <= 4)
    out.push(
      "    (three costs from four windows or fewer: the model all but passes through them, so it is no check here; give HEADSETS two steps or more)",
    );
  for (const p of points) {
    const predicted = predictCores(m, p);
    out.push(`    ${p.processes} | ${p.headsets} | ${f(p.crossing, 0)} | ${f(p.cores)} | ${f(predicted)} | ${f(predicted / p.cores)}`);
  }
  const counts = [1, 2, 3, 4, 8, 16];
  const placed = {
    organisation: "with its organisation (nginx's route: none of its events cross)",
    regardless: "regardless of its organisation ((N-1)/N of its events cross)",
  } as const;
  for (const placement of ["organisation", "regardless"] as const)
    out.push(
      `    predicted headsets (per core), every core busy, a headset placed ${placed[placement]}: ` +
        counts
          .map((n) => `${n} on ${n} cores ${f(headsetsOn(m, n, n, placement), 0)} (${f(headsetsOn(m, n, n, placement) / n, 0)})`)
          .join("; ") +
        `; on this machine's ${cpus().length} cores: 1 process ${f(headsetsOn(m, 1, cpus().length, placement), 0)}, 3 processes ${f(headsetsOn(m, 3, cpus().length, placement), 0)}`,
    );
  return out;
};
