// bench:cluster's capacity model (issue 32 §3): the Isopter processes' CPU as a cost per headset, a cost per event
// crossing the bus and a cost per process, fitted by least squares to the measured points, and what it predicts for
// N processes on M cores. The fit has three unknowns and the bench measures five or more points, so the printed
// residuals are a check of the model, not an echo of its input.

/** One measured window: its process count, headsets, events crossing the bus per second and the processes' cores. */
export interface CpuPoint {
  readonly processes: number;
  readonly headsets: number;
  readonly crossing: number;
  readonly cores: number;
  /** Every headset's events cross the bus (its browser on another process): these points give events per headset. */
  readonly allCross?: boolean;
}

/** cores = perHeadset·headsets + perEvent·crossing + perProcess·processes. */
export interface CapacityModel {
  readonly perHeadset: number;
  readonly perEvent: number;
  readonly perProcess: number;
  /** Events crossing the bus per second per headset when every event of it crosses (its browser elsewhere); 0 when no
   * point had every event crossing. */
  readonly eventsPerHeadset: number;
}

/** Events crossing per second a window needs before the fit reads a cost per event from it. */
const MIN_CROSSING = 10;

/** Solves the 3×3 system m·x = v (Gaussian elimination with partial pivoting); null when singular. */
const solve3 = (m: number[][], v: number[]): number[] | null => {
  const a = m.map((row, i) => [...row, v[i]!]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let k = col; k < 4; k++) a[r]![k]! -= f * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[3]! / row[i]!);
};

/**
 * The least-squares fit of the three costs to the points (normal equations). Null with fewer than three points or when
 * they cannot tell the costs apart (say, no point with events crossing, or every point with one process count).
 * `eventsPerHeadset` is taken from the points where every event crosses.
 */
export const fitCapacityModel = (points: ReadonlyArray<CpuPoint>): CapacityModel | null => {
  if (points.length < 3) return null;
  // Without a window where events cross in earnest (a few control messages a second do not count), the cost per event
  // is noise, and the others with it.
  if (!points.some((p) => p.crossing >= MIN_CROSSING)) return null;
  const rows = points.map((p) => [p.headsets, p.crossing, p.processes]);
  const ata = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)));
  const aty = [0, 1, 2].map((i) => rows.reduce((s, r, k) => s + r[i]! * points[k]!.cores, 0));
  const x = solve3(ata, aty);
  if (!x) return null;
  const spread = points.filter((p) => p.allCross === true && p.headsets > 0);
  const headsets = spread.reduce((s, p) => s + p.headsets, 0);
  return {
    perHeadset: x[0]!,
    perEvent: x[1]!,
    perProcess: x[2]!,
    eventsPerHeadset: headsets > 0 ? spread.reduce((s, p) => s + p.crossing, 0) / headsets : 0,
  };
};

/** The cores the model gives a measured point (with its measured events crossing). */
export const predictCores = (m: CapacityModel, p: Omit<CpuPoint, "cores">) =>
  m.perHeadset * p.headsets + m.perEvent * p.crossing + m.perProcess * p.processes;

/**
 * The share of a headset's events that cross the bus with N processes, each organisation's browsers on one process:
 * none when the proxy places the headset with its organisation (its route, deploy/nginx/isopter.conf); (N−1)/N when
 * it places it regardless of its organisation (a proxy without the route rule, or a headset that has not learnt its
 * route yet).
 */
export type ProxyPlacement = "organisation" | "regardless";

export const crossingShare = (processes: number, placement: ProxyPlacement) =>
  placement === "organisation" ? 0 : (processes - 1) / processes;

/**
 * Headsets N processes hold on M cores by the model, every usable core busy; 0 when the processes' own cost fills them.
 * A process's work runs on its one JavaScript thread, so N processes use at most N of the cores.
 */
export const headsetsOn = (m: CapacityModel, processes: number, cores: number, placement: ProxyPlacement) => {
  const perHeadset = m.perHeadset + m.perEvent * m.eventsPerHeadset * crossingShare(processes, placement);
  const room = Math.min(cores, processes) - m.perProcess * processes;
  return room <= 0 || perHeadset <= 0 ? 0 : room / perHeadset;
};
