import { RRandom } from "../statistics/r-random.ts";
import { studentTCdf } from "../statistics/student-t.ts";
import { correlationTable, exactTerms } from "./poplr-table.ts";
import { interpolated, LEFT_BELOW, RIGHT_BELOW, sieveFlags, UNDECIDED } from "./poplr-sieve.ts";
import { REGRESSION_PRECISION } from "./linear-regression.ts";

/**
 * PoPLR, permutation analysis of pointwise linear regression (O'Leary, Chauhan & Artes, IOVS 2012), as visualFields 1.x
 * computes it: for the observed visit order and for each permutation of the visit dates, per-location PLR p-values
 * (clipped to [1e-6, 1 - 1e-6]) are combined into S = -sum ln p (left tail, progression) and
 * S' = -sum ln(1 - p) (right tail, improvement); the p-value is 1 - rank(S_obs) / nperm with average ranks for ties.
 * Up to 7 visits every permutation is enumerated (exact). Above, the permutations are random: the observed order
 * plus nperm - 1 further distinct orders drawn with R's generator from `seed` (R's sample(), as visualFields draws
 * them after set.seed(seed)), so results are reproducible. The ranks are counted through a sieve (`sievedRanks`) that
 * gives the exhaustive counts many times faster.
 */
export const POPLR_EXACT_MAX_VISITS = 7;
export const POPLR_DEFAULT_PERMUTATIONS = 5040;
const P_CLIP = REGRESSION_PRECISION;

export interface PoplrResult {
  /** Left-tailed combined statistic and its permutation p-value. */
  readonly csl: number;
  readonly cslp: number;
  /** Right-tailed combined statistic and its permutation p-value. */
  readonly csr: number;
  readonly csrp: number;
  readonly nperm: number;
  readonly exact: boolean;
  /** Per-location p-values of the observed order (clipped), null where excluded. */
  readonly pointwiseP: Array<number | null>;
}

/** Every permutation of 0..n-1, identity first (lexicographic order). */
export function allPermutations(n: number): number[][] {
  const out: number[][] = [];
  const a = [...Array(n).keys()];
  for (;;) {
    out.push([...a]);
    let i = n - 2;
    while (i >= 0 && a[i]! > a[i + 1]!) i--;
    if (i < 0) return out;
    let j = n - 1;
    while (a[j]! < a[i]!) j--;
    [a[i], a[j]] = [a[j]!, a[i]!];
    for (let l = i + 1, r = n - 1; l < r; l++, r--) [a[l], a[r]] = [a[r]!, a[l]!];
  }
}

/** The identity plus nperm - 1 further distinct random orders (R-compatible draws from `seed`). */
export function randomPermutations(n: number, nperm: number, seed: number): number[][] {
  const rng = new RRandom(seed);
  const identity = [...Array(n).keys()];
  const seen = new Set([identity.join(",")]);
  const out = [identity];
  // visualFields draws 8! orders and keeps the first nperm distinct ones; we stop at the same point.
  for (let draws = 0; out.length < nperm && draws < 40320; draws++) {
    const p = rng.permutation(n);
    const key = p.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  if (out.length < nperm) throw new Error(`could not draw ${nperm} distinct permutations of ${n} visits`);
  return out;
}

/**
 * The orders a series of n visits is permuted in: they depend only on n, nperm and the seed, so a few are kept
 * (series-criteria run PoPLR on thousands of eyes of the same length; drawing 5040 orders took about 1 ms each time).
 * Callers only read them.
 */
const kept = new Map<string, readonly number[][]>();
function permutationsFor(n: number, nperm: number | null, seed: number): readonly number[][] {
  const key = `${n}:${nperm}:${seed}`;
  let perms = kept.get(key);
  if (perms === undefined) {
    perms = nperm === null ? allPermutations(n) : randomPermutations(n, nperm, seed);
    if (kept.size >= 16) kept.delete(kept.keys().next().value!);
    kept.set(key, perms);
  }
  return perms;
}

/** Average ranks of the observed statistics among all orders' (R's rank() with ties.method = "average"). */
interface Ranks {
  readonly left: number;
  readonly right: number;
}
type ExactStatistics = (perm: readonly number[], keepP: boolean) => [number, number];

/** Ranks counted from each order's exact statistics (any testSlope). */
function exhaustiveRanks(perms: readonly (readonly number[])[], csl: number, csr: number, exact: ExactStatistics): Ranks {
  const left = new Tally(csl),
    right = new Tally(csr);
  for (let q = 1; q < perms.length; q++) {
    const [sl, sr] = exact(perms[q]!, false);
    left.add(sl);
    right.add(sr);
  }
  return { left: left.rank(), right: right.rank() };
}

class Tally {
  private less = 0;
  private equal = 1; // the observed order itself
  constructor(readonly observed: number) {}
  add(value: number) {
    if (value < this.observed) this.less++;
    else if (value === this.observed) this.equal++;
  }
  addLess() {
    this.less++;
  }
  rank() {
    return this.less + (this.equal + 1) / 2;
  }
}

interface SieveInput {
  readonly perms: readonly (readonly number[])[];
  readonly years: readonly number[];
  readonly y: Float64Array;
  readonly mean: Float64Array;
  readonly ssy: Float64Array;
  readonly invariant: Uint8Array;
  readonly n: number;
  readonly k: number;
  readonly ssx: number;
  readonly df: number;
  readonly csl: number;
  readonly csr: number;
}

/**
 * The same ranks, several times faster (testSlope 0): each order's statistics are first approximated from
 * poplr-table.ts (a location's terms as a function of its correlation with the permuted dates, each interval with its
 * own error limit), read at the nearest grid point in WebAssembly (poplr-sieve.ts) and, where that is too coarse to
 * tell, again with interpolation; only orders whose interpolated approximation lies within the summed limits of an
 * observed statistic are computed exactly. Those outside are on the same side of it as their exact value, so the
 * counts, and the p-values, are the exact ones. With 3 or 4 visits (at most 24 orders) the orders are simply counted,
 * and so they are where WebAssembly SIMD is missing.
 */
const SIEVE_MIN_VISITS = 5;

function sievedRanks(s: SieveInput, exact: ExactStatistics): Ranks {
  const { n, k, perms } = s;
  if (n < SIEVE_MIN_VISITS) return exhaustiveRanks(perms, s.csl, s.csr, exact);
  const table = correlationTable(s.df, P_CLIP);
  // Varying locations only (an invariant one adds the same constant to every order).
  const varying: number[] = [];
  let constantLeft = 0,
    constantRight = 0;
  for (let j = 0; j < k; j++) {
    if (!s.invariant[j]) varying.push(j);
    else {
      const [l, r] = exactTerms(0, s.df, P_CLIP);
      constantLeft += l;
      constantRight += r;
    }
  }
  const m = varying.length;
  // Centred values, and per location the factor taking c to its grid position, half (r + 1) = c half / sqrt(SSx SSy) + half.
  const centred = new Float64Array(m * n),
    toGrid = new Float64Array(m);
  const half = table.intervals / 2;
  varying.forEach((j, u) => {
    for (let v = 0; v < n; v++) centred[u * n + v] = s.y[j * n + v]! - s.mean[j]!;
    toGrid[u] = half / Math.sqrt(s.ssx * s.ssy[j]!);
  });
  const task = {
    perms,
    years: s.years,
    centred,
    toGrid,
    table,
    tableKey: `${s.df}:${P_CLIP}`,
    constantLeft,
    constantRight,
    observedLeft: s.csl,
    observedRight: s.csr,
  };
  const flags = sieveFlags(task);
  if (flags === null) return exhaustiveRanks(perms, s.csl, s.csr, exact);
  const left = new Tally(s.csl),
    right = new Tally(s.csr);
  for (let q = 1; q < perms.length; q++) {
    let flag = flags[q]!;
    if (flag & UNDECIDED) {
      const again = interpolated(task, perms[q]!);
      if (Math.abs(again.left - s.csl) <= again.band || Math.abs(again.right - s.csr) <= again.band) {
        const [el, er] = exact(perms[q]!, false);
        left.add(el);
        right.add(er);
        continue;
      }
      flag = (again.left < s.csl ? LEFT_BELOW : 0) | (again.right < s.csr ? RIGHT_BELOW : 0);
    }
    if (flag & LEFT_BELOW) left.addLess();
    if (flag & RIGHT_BELOW) right.addLess();
  }
  return { left: left.rank(), right: right.rank() };
}

export interface PoplrOptions {
  readonly nperm?: number;
  readonly seed?: number;
  readonly testSlope?: number;
  /** Compute every order's statistics exactly instead of sieving (the definition itself; tests compare the two). */
  readonly exhaustive?: boolean;
}

/**
 * PoPLR on a series (rows = visits in date order, columns = locations; null columns, e.g. blind spots, are skipped).
 * `years` = years since the first visit.
 */
export function poplr(
  years: readonly number[],
  series: ReadonlyArray<ReadonlyArray<number | null>>,
  options: PoplrOptions = {},
): PoplrResult {
  const n = years.length;
  if (n < 3) throw new Error(`PoPLR needs at least 3 visits, got ${n}`);
  const nperm = options.nperm ?? POPLR_DEFAULT_PERMUTATIONS;
  const testSlope = options.testSlope ?? 0;
  const exact = n <= POPLR_EXACT_MAX_VISITS;
  const perms = permutationsFor(n, exact ? null : nperm, options.seed ?? 1);
  const np = perms.length;

  const nloc = series[0]!.length;
  const locs: number[] = [];
  for (let l = 0; l < nloc; l++) if (series.every((row) => row[l] !== null && row[l] !== undefined)) locs.push(l);
  const k = locs.length;
  // Per location: values, mean, SSy, invariance (visualFields: SD <= 1e-6 means slope 0, se 1e-6).
  const y = new Float64Array(k * n),
    ssy = new Float64Array(k),
    mean = new Float64Array(k),
    invariant = new Uint8Array(k);
  locs.forEach((l, j) => {
    let s = 0;
    for (let v = 0; v < n; v++) {
      y[j * n + v] = series[v]![l]!;
      s += series[v]![l]!;
    }
    mean[j] = s / n;
    let ss = 0;
    for (let v = 0; v < n; v++) ss += (y[j * n + v]! - mean[j]!) ** 2;
    ssy[j] = ss;
    invariant[j] = Math.sqrt(ss / (n - 1)) <= REGRESSION_PRECISION ? 1 : 0;
  });
  let sYears = 0;
  for (const t of years) sYears += t;
  const mYears = sYears / n;
  let ssx = 0;
  for (const t of years) ssx += (t - mYears) ** 2;
  const kv = (n - 2) * ssx;
  const df = n - 2;

  /** Exact left and right statistics of one order (the definition; every result below equals its counts). */
  const permYears = new Float64Array(n);
  const observedP: number[] = [];
  const exactStatistics = (perm: readonly number[], keepP: boolean): [number, number] => {
    for (let v = 0; v < n; v++) permYears[v] = years[perm[v]!]!;
    let sl = 0,
      sr = 0;
    for (let j = 0; j < k; j++) {
      let p: number;
      if (invariant[j]) p = studentTCdf((0 - testSlope) / REGRESSION_PRECISION, df);
      else {
        let dot = 0;
        const base = j * n;
        for (let v = 0; v < n; v++) dot += permYears[v]! * y[base + v]!;
        const slope = (dot - sYears * mean[j]!) / ssx;
        const se = Math.sqrt(Math.max(0, (ssy[j]! - ssx * slope * slope) / kv));
        p = studentTCdf((slope - testSlope) / se, df);
      }
      if (p < P_CLIP) p = P_CLIP;
      else if (p > 1 - P_CLIP) p = 1 - P_CLIP;
      sl -= Math.log(p);
      sr -= Math.log(1 - p);
      if (keepP) observedP.push(p);
    }
    return [sl, sr];
  };

  const [csl, csr] = exactStatistics(perms[0]!, true);
  const ranks =
    testSlope === 0 && ssx > 0 && !options.exhaustive
      ? sievedRanks({ perms, years, y, mean, ssy, invariant, n, k, ssx, df, csl, csr }, exactStatistics)
      : exhaustiveRanks(perms, csl, csr, exactStatistics);
  const pointwiseP: Array<number | null> = new Array(nloc).fill(null);
  locs.forEach((l, j) => (pointwiseP[l] = observedP[j]!));
  return {
    csl,
    cslp: 1 - ranks.left / np,
    csr,
    csrp: 1 - ranks.right / np,
    nperm: np,
    exact,
    pointwiseP,
  };
}
