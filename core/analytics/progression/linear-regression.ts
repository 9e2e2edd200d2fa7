import { studentTCdf } from "../statistics/student-t.ts";

/**
 * Global and pointwise linear regression over time as visualFields 1.x defines them (glr, plr; Marín-Franch &
 * Swanson, Apache-2.0): years = days since the first visit / 365.25; ordinary least squares;
 * se = sqrt(max(0, (SSy - SSx b^2) / ((n - 2) SSx))); t = (b - testSlope) / se; one-sided p = P(T_{n-2} <= t).
 * A series whose SD is at most 1e-6 gets slope 0, intercept = its first value and se = 1e-6 (so t = 0, p = 0.5).
 */
export const REGRESSION_PRECISION = 1e-6;
const DAYS_PER_YEAR = 365.25;

export interface Regression {
  readonly slope: number;
  readonly intercept: number;
  readonly se: number;
  readonly t: number;
  readonly p: number;
}

const MS_PER_DAY = 86_400_000;
/** Days since 1970-01-01 of an ISO date (yyyy-mm-dd), in UTC so time zones never shift a visit. */
export function isoDateToDays(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) throw new Error(`date: expected yyyy-mm-dd, got "${date}"`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY;
}

/** Years since the first date, as visualFields computes them (dates must be sorted). */
export function yearsSinceFirst(days: readonly number[]): number[] {
  return days.map((d) => (d - days[0]!) / DAYS_PER_YEAR);
}

function meanOf(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]!;
  return s / v.length;
}

/** Sum of squared deviations from the mean. */
function sumSquares(v: ArrayLike<number>, mean: number): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i]! - mean) ** 2;
  return s;
}

/** Regression of y on x (x = years) with visualFields' se and one-sided p. Needs n >= 3. */
export function linearRegression(x: readonly number[], y: readonly number[], testSlope = 0): Regression {
  const n = x.length;
  if (n < 3 || y.length !== n) throw new Error(`regression needs at least 3 paired values, got ${n}`);
  const mx = meanOf(x),
    my = meanOf(y);
  const ssx = sumSquares(x, mx),
    ssy = sumSquares(y, my);
  let sxy = 0;
  for (let i = 0; i < n; i++) sxy += (x[i]! - mx) * (y[i]! - my);
  let slope = sxy / ssx;
  let intercept = my - slope * mx;
  let se = Math.sqrt(Math.max(0, (ssy - ssx * slope * slope) / ((n - 2) * ssx)));
  if (Math.sqrt(ssy / (n - 1)) <= REGRESSION_PRECISION) {
    intercept = y[0]!;
    slope = 0;
    se = REGRESSION_PRECISION;
  }
  const t = (slope - testSlope) / se;
  return { slope, intercept, se, t, p: studentTCdf(t, n - 2) };
}

/** Pointwise linear regression: one regression per location (columns of `series`, rows = visits); null stays null. */
export function pointwiseRegression(
  years: readonly number[],
  series: ReadonlyArray<ReadonlyArray<number | null>>,
  testSlope = 0,
): Array<Regression | null> {
  const nloc = series[0]?.length ?? 0;
  return [...Array(nloc).keys()].map((loc) => {
    const y = series.map((row) => row[loc]);
    if (y.some((v) => v === null || v === undefined)) return null;
    return linearRegression(years, y as number[], testSlope);
  });
}
