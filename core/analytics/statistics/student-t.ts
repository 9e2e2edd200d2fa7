/**
 * Student-t distribution function, accurate to well below 1e-9 (checked in tests against R's pt() values that
 * the reference files carry). Two independent routes:
 * - integer degrees of freedom (every regression here: df = visits - 2): the closed-form finite series of
 *   Abramowitz & Stegun 26.7.3-26.7.4, fast enough for PoPLR's hundreds of thousands of evaluations;
 * - any df: P(T <= t) = I_{df/(df+t^2)}(df/2, 1/2) / 2 for t < 0, with the regularized incomplete beta
 *   evaluated by its continued fraction (modified Lentz), as in Numerical Recipes §6.4.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Gamma(x) for x > 0 (Lanczos g = 7, n = 9; relative error about 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction for the incomplete beta (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300,
    eps = 1e-16;
  const qab = a + b,
    qap = a + 1,
    qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < eps) return h;
  }
  throw new Error(`incomplete beta did not converge (x=${x}, a=${a}, b=${b})`);
}

/** Regularized incomplete beta I_x(a, b), 0 <= x <= 1, a, b > 0. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0)) return NaN;
  if (x === 0) return 0;
  if (x === 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  // Use the continued fraction where it converges fast; otherwise the symmetry I_x(a,b) = 1 - I_{1-x}(b,a).
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom, by the incomplete beta (any df > 0). */
export function studentTCdfBeta(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const x = df / (df + t * t);
  // For large |t| x is tiny and accurate; for small |t|, compute 1 - x = t^2/(df + t^2) directly to keep precision.
  const tail =
    x < 0.5 ? 0.5 * regularizedIncompleteBeta(x, df / 2, 0.5) : 0.5 * (1 - regularizedIncompleteBeta((t * t) / (df + t * t), 0.5, df / 2));
  return t < 0 ? tail : 1 - tail;
}

/**
 * P(T <= t) for integer df (A&S 26.7.3/26.7.4): with theta = atan(t / sqrt(df)),
 * A = (2/pi)(theta + sin theta (cos theta + 2/3 cos^3 theta + ...)) for odd df, sin theta (1 + 1/2 cos^2 theta + ...) for even;
 * the lower tail for t < 0 is (1 - A(|t|)) / 2, computed from the complementary series to avoid cancellation.
 */
export function studentTCdfInteger(t: number, df: number): number {
  if (Number.isNaN(t)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const at = Math.abs(t);
  const r = Math.sqrt(df + at * at);
  const cos = Math.sqrt(df) / r; // cos theta, theta in [0, pi/2)
  const sin = at / r;
  const cos2 = cos * cos;
  let upper: number; // P(T > |t|)
  if (df % 2 === 1) {
    // 1 - A = (2/pi)(pi/2 - theta) - (2/pi) sin theta * S, S = cos + 2/3 cos^3 + (2*4)/(3*5) cos^5 + ... (df - 2 terms)
    let term = cos,
      s = df > 1 ? cos : 0;
    for (let k = 3; k <= df - 2; k += 2) {
      term *= (cos2 * (k - 1)) / k;
      s += term;
    }
    // (pi/2 - theta) = atan2(sqrt(df), |t|) keeps precision in the far tail.
    upper = 0.5 * ((2 / Math.PI) * Math.atan2(Math.sqrt(df), at) - (2 / Math.PI) * sin * s);
  } else {
    // 1 - A = 1 - sin theta * (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...); for the far tail use the beta route instead.
    let term = 1,
      s = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= (cos2 * (k - 1)) / k;
      s += term;
    }
    upper = 0.5 * (1 - sin * s);
  }
  // Cancellation in the far tail (upper < 1e-7): fall back to the incomplete beta, which is accurate in relative terms.
  if (upper < 1e-7) upper = studentTCdfBeta(-at, df);
  return t < 0 ? upper : 1 - upper;
}

/** Student-t distribution function P(T <= t), like R's pt(t, df). */
export function studentTCdf(t: number, df: number): number {
  return Number.isInteger(df) && df >= 1 && df <= 200 ? studentTCdfInteger(t, df) : studentTCdfBeta(t, df);
}
