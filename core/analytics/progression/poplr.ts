import { RRandom } from "../statistics/r-random.ts";
import { studentTCdf } from "../statistics/student-t.ts";
import { REGRESSION_PRECISION } from "./linear-regression.ts";

/**
 * PoPLR, permutation analysis of pointwise linear regression (O'Leary, Chauhan & Artes, IOVS 2012), as visualFields 1.x
 * computes it: for the observed visit order and for each permutation of the visit dates, per-location PLR p-values
 * (clipped to [1e-6, 1 - 1e-6]) are combined into S = -sum ln p (left tail, progression) and
 * S' = -sum ln(1 - p) (right tail, improvement); the p-value is 1 - rank(S_obs) / nperm with average ranks for ties.
 * Up to 7 visits every permutation is enumerated (exact). Above, the permutations are random: the observed order
 * plus nperm - 1 further distinct orders drawn with R's generator from `seed` (R's sample(), as visualFields draws
 * them after set.seed(seed)), so results are reproducible.
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

/** Average rank of values[0] among all values (R's rank() with ties.method = "average"). */
function rankOfFirst(values: Float64Array): number {
  const v0 = values[0]!;
  let less = 0,
    equal = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i]! < v0) less++;
    else if (values[i] === v0) equal++;
  }
  return less + (equal + 1) / 2;
}

export interface PoplrOptions {
  readonly nperm?: number;
  readonly seed?: number;
  readonly testSlope?: number;
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

  const csl = new Float64Array(np),
    csr = new Float64Array(np);
  const permYears = new Float64Array(n);
  const observedP: number[] = [];
  for (let q = 0; q < np; q++) {
    const perm = perms[q]!;
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
      if (q === 0) observedP.push(p);
    }
    csl[q] = sl;
    csr[q] = sr;
  }
  const pointwiseP: Array<number | null> = new Array(nloc).fill(null);
  locs.forEach((l, j) => (pointwiseP[l] = observedP[j]!));
  return {
    csl: csl[0]!,
    cslp: 1 - rankOfFirst(csl) / np,
    csr: csr[0]!,
    csrp: 1 - rankOfFirst(csr) / np,
    nperm: np,
    exact,
    pointwiseP,
  };
}
