import { studentTCdf } from "../statistics/student-t.ts";

/**
 * PoPLR's per-location terms as a function of one number, tabulated once per degrees of freedom.
 *
 * With testSlope 0 a location's t statistic depends only on its correlation r = c / sqrt(SSx SSy) with the permuted
 * dates (c = sum (x - mean x) y): t = r sqrt(df) / sqrt(1 - r^2), since slope = c / SSx and
 * se^2 = (SSy - c^2 / SSx) / (df SSx). Its left term -ln p and right term -ln(1 - p) (p = P(T_df <= t), clipped like
 * poplr.ts) are two fixed functions of r, constant where p is clipped. A table on an even grid in r, with linear
 * interpolation, gives them in a multiplication and a few loads: no square root or division per location and
 * permutation (a grid in t needed both, and they were half of PoPLR's time).
 *
 * Two readings, two error limits per point. The sieve (poplr-sieve.wat) reads the nearest point's terms as they are:
 * the terms are monotone in r (p rises with t, t with r), so within half a step of a point they stay between their
 * values at the two half-step ends, and that span is the point's "nearest" limit, exact up to rounding. The orders
 * it cannot decide are read again (poplr-sieve.ts's `interpolated`) with linear interpolation, whose error is second
 * order: the terms bend sharply in r near the clip (with few degrees of freedom the clip lies within 1e-3 of
 * |r| = 1), so one limit for the whole grid would be that of its worst interval; each interval keeps its own measured limit instead. Every reading
 * adds up the limits of the points or intervals its locations fall in. The table is only a sieve: poplr.ts recomputes
 * exactly every permutation whose interpolated statistic lies within that sum of the observed one, so every p-value
 * is the one the exact computation gives.
 */

export const INTERVALS = 8192;
/**
 * Values per grid point: left term, right term (side by side, so the sieve reads both with one load), their rises to
 * the next point, the interpolated interval's error limit and the point's nearest-reading limit (48 bytes a point).
 */
export const STRIDE = 6;
export const INTERPOLATED_LIMIT = 4;
export const NEAREST_LIMIT = 5;
/** Points checked inside each interval when its error is measured (and the clip's kink, where it falls inside). */
const CHECKS = 9;
/**
 * Each interval's measured interpolation error, taken 4 times, plus an allowance for rounding: r computed two ways
 * differs by about 1e-15 relative, and the terms' slope in r stays below 1e4 inside the clip for every df the sieve is
 * used for (3 or more). Generous on purpose: a wider band only costs a few exact recomputations.
 */
const SAFETY = 4;
const ROUNDING = 1e-9;

export interface CorrelationTable {
  readonly intervals: number;
  /**
   * Point i (r_i = 2 i / intervals - 1) at [STRIDE i]: left term, right term, left[i + 1] - left[i],
   * right[i + 1] - right[i], the limit of |interpolated - exact| for either term inside [r_i, r_i+1], and the limit of
   * |term at r_i - exact| for either term within half a step of r_i.
   */
  readonly points: Float64Array;
}

/** The two terms at t, exactly as poplr.ts's exact path computes them. */
export function exactTerms(t: number, df: number, clip: number): [left: number, right: number] {
  let p = studentTCdf(t, df);
  if (p < clip) p = clip;
  else if (p > 1 - clip) p = 1 - clip;
  return [-Math.log(p), -Math.log(1 - p)];
}

/** t of a correlation r with df degrees of freedom (infinite at |r| = 1: a perfect fit). */
export const tOfCorrelation = (r: number, df: number): number =>
  Math.abs(r) >= 1 ? (r > 0 ? Infinity : -Infinity) : (r * Math.sqrt(df)) / Math.sqrt(1 - r * r);

/** A t past which P(T_df <= -t) < clip (bisection): the terms are constant beyond +-that t. */
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

function build(df: number, clip: number): CorrelationTable {
  const at = (x: number) => (2 * x) / INTERVALS - 1;
  const terms = (r: number) => exactTerms(tOfCorrelation(r, df), df, clip);
  const left = new Float64Array(INTERVALS + 1),
    right = new Float64Array(INTERVALS + 1);
  for (let i = 0; i <= INTERVALS; i++) [left[i], right[i]] = terms(at(i));
  // Where the clip starts, the terms have a kink: an interval holding it is checked there too.
  const t = clipLimit(df, clip);
  const kink = t / Math.sqrt(df + t * t);
  // Half-way between points: the ends of each point's nearest reading.
  const midLeft = new Float64Array(INTERVALS),
    midRight = new Float64Array(INTERVALS);
  for (let i = 0; i < INTERVALS; i++) [midLeft[i], midRight[i]] = terms(at(i + 0.5));
  const nearest = (i: number) => {
    let span = 0;
    for (const m of [i - 1, i])
      if (m >= 0 && m < INTERVALS) span = Math.max(span, Math.abs(midLeft[m]! - left[i]!), Math.abs(midRight[m]! - right[i]!));
    return span + ROUNDING;
  };
  const points = new Float64Array(STRIDE * (INTERVALS + 1));
  for (let i = 0; i < INTERVALS; i++) {
    const from = at(i),
      to = at(i + 1);
    const checks = Array.from({ length: CHECKS }, (_, c) => (c + 1) / (CHECKS + 1));
    for (const k of [-kink, kink]) if (k > from && k < to) checks.push((k - from) / (to - from));
    let error = 0;
    for (const w of checks) {
      const [l, r] = terms(from + w * (to - from));
      error = Math.max(
        error,
        Math.abs(left[i]! + w * (left[i + 1]! - left[i]!) - l),
        Math.abs(right[i]! + w * (right[i + 1]! - right[i]!) - r),
      );
    }
    const limit = SAFETY * error + ROUNDING;
    points.set([left[i]!, right[i]!, left[i + 1]! - left[i]!, right[i + 1]! - right[i]!, limit, nearest(i)], STRIDE * i);
  }
  // The last point (r = 1) ends the grid: a correlation there takes its terms as they are.
  points.set([left[INTERVALS]!, right[INTERVALS]!, 0, 0, ROUNDING, nearest(INTERVALS)], STRIDE * INTERVALS);
  return { intervals: INTERVALS, points };
}

const tables = new Map<string, CorrelationTable>();

/** The table for `df` degrees of freedom and p clipped to [clip, 1 - clip]; built once (about 80 ms) and kept. */
export function correlationTable(df: number, clip: number): CorrelationTable {
  const key = `${df}:${clip}`;
  let table = tables.get(key);
  if (table === undefined) {
    table = build(df, clip);
    tables.set(key, table);
  }
  return table;
}
