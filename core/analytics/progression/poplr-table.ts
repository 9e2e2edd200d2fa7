import { studentTCdf } from "../statistics/student-t.ts";

/**
 * PoPLR's per-location terms as a function of one number, tabulated once per degrees of freedom.
 *
 * With testSlope 0 a location's t statistic is t = c sqrt(df) / sqrt(SSx SSy - c^2) for c = sum (x - mean x) y (since
 * slope = c / SSx and se^2 = (SSy - c^2 / SSx) / (df SSx)), and its left term -ln p and right term -ln(1 - p)
 * (p = P(T_df <= t), clipped like poplr.ts) are two fixed functions of t. Beyond +-limit, where p is clipped, they are
 * constant; between, a table on an even grid in t with linear interpolation gives them in a few operations instead of
 * a distribution function and two logarithms. (A grid in the correlation r = c / sqrt(SSx SSy) was tried first: the
 * terms grow like ln|t| as |r| nears 1, and with few degrees of freedom the clip is reached only there, so its error
 * near the ends was several units.) The table is only a sieve: `bound` is a safe limit of its error, and
 * poplr.ts recomputes exactly every permutation whose approximate statistic falls within the summed limits of the
 * observed one, so every p-value is the one the exact computation gives.
 */

const INTERVALS = 8192;
/** Points checked inside each interval when the table's error is measured. */
const CHECKS = 9;
/**
 * The measured error, taken 4 times, plus an allowance for rounding: t computed two ways differs by about 1e-13
 * relative inside the grid (the terms' slope there is at most (df + 1) / |t|, below 2). Generous on purpose: a wider
 * band only costs a few exact recomputations.
 */
const SAFETY = 4;
const ROUNDING = 1e-9;

export interface ContributionTable {
  readonly intervals: number;
  /** |t| beyond which p is clipped on either side: the grid spans [-limit, limit]. */
  readonly limit: number;
  /** -ln p at t_i = limit (2 i / intervals - 1). */
  readonly left: Float64Array;
  /** -ln (1 - p) at t_i. */
  readonly right: Float64Array;
  /** Limit of |interpolated - exact| for either term at any t (clamped to the grid's ends). */
  readonly bound: number;
}

/** The two terms at t, exactly as poplr.ts's exact path computes them. */
export function exactTerms(t: number, df: number, clip: number): [left: number, right: number] {
  let p = studentTCdf(t, df);
  if (p < clip) p = clip;
  else if (p > 1 - clip) p = 1 - clip;
  return [-Math.log(p), -Math.log(1 - p)];
}

/** A t past which P(T_df <= -t) < clip: the lower quantile found by bisection, the grid ends there, so no interval holds the kink the clip makes. */
function clipLimit(df: number, clip: number): number {
  let lo = 0,
    hi = 1;
  while (studentTCdf(-hi, df) >= clip) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(-mid, df) >= clip) lo = mid;
    else hi = mid;
  }
  return hi;
}

function build(df: number, clip: number): ContributionTable {
  const limit = clipLimit(df, clip);
  const at = (x: number) => limit * ((2 * x) / INTERVALS - 1);
  const left = new Float64Array(INTERVALS + 1),
    right = new Float64Array(INTERVALS + 1);
  for (let i = 0; i <= INTERVALS; i++) [left[i], right[i]] = exactTerms(at(i), df, clip);
  let worst = 0;
  for (let i = 0; i < INTERVALS; i++)
    for (let c = 1; c <= CHECKS; c++) {
      const w = c / (CHECKS + 1);
      const [l, r] = exactTerms(at(i + w), df, clip);
      const li = left[i]! + w * (left[i + 1]! - left[i]!),
        ri = right[i]! + w * (right[i + 1]! - right[i]!);
      worst = Math.max(worst, Math.abs(li - l), Math.abs(ri - r));
    }
  return { intervals: INTERVALS, limit, left, right, bound: SAFETY * worst + ROUNDING };
}

const tables = new Map<string, ContributionTable>();

/** The table for `df` degrees of freedom and p clipped to [clip, 1 - clip]; built once (about 10 ms) and kept. */
export function contributionTable(df: number, clip: number): ContributionTable {
  const key = `${df}:${clip}`;
  let table = tables.get(key);
  if (table === undefined) {
    table = build(df, clip);
    tables.set(key, table);
  }
  return table;
}
