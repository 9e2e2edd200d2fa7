/**
 * Weighted quantiles as Hmisc's wtd.quantile(type = "quantile", normwt = FALSE) computes them (the method visualFields
 * uses for its look-up tables): collapse equal values summing their weights, n = sum of weights,
 * order = 1 + (n - 1) p, and interpolate between the smallest values whose cumulative weight reaches
 * floor(order) and floor(order) + 1 (capped at n).
 */
export function weightedQuantiles(values: readonly number[], weights: readonly number[], probs: readonly number[]): number[] {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const xs: number[] = [],
    ws: number[] = [];
  for (const i of idx) {
    const v = values[i]!;
    if (xs.length > 0 && xs[xs.length - 1] === v) ws[ws.length - 1]! += weights[i]!;
    else {
      xs.push(v);
      ws.push(weights[i]!);
    }
  }
  // R accumulates cumsum() and sum() in extended precision: with weights such as 1/5 a plain double running sum
  // gives 1.9999999999999998 where R gets 2, and picks another order statistic. Neumaier-compensated sums,
  // rounded once to double, reproduce R's values.
  const cum = compensatedCumsum(ws);
  const n = cum[cum.length - 1]!;
  // The smallest value whose cumulative weight reaches `at` (R's approx(method = "constant", f = 1, rule = 2)).
  const orderStatistic = (at: number): number => {
    if (at <= cum[0]!) return xs[0]!;
    for (let i = 1; i < cum.length; i++) if (cum[i]! >= at) return xs[i]!;
    return xs[xs.length - 1]!;
  };
  return probs.map((p) => {
    const order = 1 + (n - 1) * p;
    const low = Math.max(Math.floor(order), 1);
    const high = Math.min(low + 1, n);
    const frac = order % 1;
    return (1 - frac) * orderStatistic(low) + frac * orderStatistic(high);
  });
}

/** Weighted mean and SD with raw frequency weights, sum w (x - m)^2 / (sum w - 1) (Hmisc wtd.var, normwt = FALSE). */
export function weightedMeanSd(values: readonly number[], weights: readonly number[]): { mean: number; sd: number } {
  let sw = 0,
    swx = 0;
  for (let i = 0; i < values.length; i++) {
    sw += weights[i]!;
    swx += weights[i]! * values[i]!;
  }
  const mean = swx / sw;
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += weights[i]! * (values[i]! - mean) ** 2;
  return { mean, sd: Math.sqrt(ss / (sw - 1)) };
}

/** Running sums with Neumaier compensation, each rounded once to double (like R's long-double cumsum). */
export function compensatedCumsum(values: readonly number[]): number[] {
  const out: number[] = [];
  let s = 0,
    c = 0;
  for (const v of values) {
    const t = s + v;
    c += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    s = t;
    out.push(s + c);
  }
  return out;
}
