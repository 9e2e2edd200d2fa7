import type { PatternGeometry } from "../patterns.ts";
import type { VisualFieldRow } from "../visualfields-csv.ts";
import { globalIndices } from "../global-indices.ts";
import { generalHeight, patternDeviation, totalDeviation } from "../pointwise.ts";
import { leastSquares, weightedLine } from "../statistics/least-squares.ts";
import { weightedMeanSd, weightedQuantiles } from "../statistics/weighted-quantile.ts";
import { subjectWeights, withGhtLimits } from "./ght-limits.ts";
import { globalIndexNames, higherIsBetter, lutProbabilities, type GlobalIndexName, type NormativeTables } from "./tables.ts";

/**
 * Our normative model, built from raw control fields by the visualFields age-linear method
 * (shared/design/analytics.md, "Normative model"):
 * - per location, N(loc, age) = intercept + slope * age by weighted least squares with weight
 *   1 / (visits of that subject) / (number of subjects), so every subject counts once;
 * - TD = s - N, GH = ghRank-th highest TD, PD = TD - GH;
 * - per-location SDs of sensitivity, TD and PD: weighted (same subject weights up to the constant) with the
 *   frequency-weight form sum w (x - m)^2 / (sum w - 1), weights 1 / visits;
 * - look-up tables: Hmisc-style weighted quantiles (weights 1 / visits) of control TD, PD and global indices at
 *   0.5, 1, 2, 5, 95, 98, 99, 99.5 %; for ssens, tsd and psd (higher is worse) row p holds the 1 - p quantile.
 * With `smooth`, intercepts, slopes and SDs are replaced by the least-squares quadratic surface
 * v ~ 1 + x + y + x^2 + y^2 over the locations (visualFields' "smooth" variant).
 */
export interface AgeLinearOptions {
  readonly version: string;
  readonly source: string;
  readonly ghRank: number;
  readonly smooth?: boolean;
  /**
   * Look-up tables from the quantiles of the standardised deviations (x - mean) / SD pooled over all locations,
   * scaled back per location: steadier tails where each location has few controls (full-field.ts).
   */
  readonly pooledLuts?: boolean;
}

export function buildAgeLinear(rows: readonly VisualFieldRow[], geometry: PatternGeometry, opts: AgeLinearOptions): NormativeTables {
  const nloc = geometry.points.length;
  for (const [i, r] of rows.entries())
    if (r.sensitivities.length !== nloc) throw new Error(`control row ${i + 1}: ${r.sensitivities.length} locations, pattern has ${nloc}`);
  const blind = new Set(geometry.blindSpotIndices);
  const locs = [...Array(nloc).keys()].filter((i) => !blind.has(i));
  const wVisits = subjectWeights(rows);
  const subjects = new Set(rows.map((r) => `${r.id}\u0000${r.eye}`)).size;
  const w = wVisits.map((v) => v / subjects);
  const ages = rows.map((r) => r.age);

  const perLoc = <T>(f: (loc: number) => T): Array<T | null> => [...Array(nloc).keys()].map((i) => (blind.has(i) ? null : f(i)));
  const smoothed = (v: Array<number | null>): Array<number | null> => {
    if (!opts.smooth) return v;
    const design = locs.map((i) => {
      const p = geometry.points[i]!;
      return [1, p.x, p.y, p.x * p.x, p.y * p.y];
    });
    const beta = leastSquares(
      design,
      locs.map((i) => v[i]!),
    );
    return perLoc((i) => {
      const p = geometry.points[i]!;
      return beta[0]! + beta[1]! * p.x + beta[2]! * p.y + beta[3]! * p.x * p.x + beta[4]! * p.y * p.y;
    });
  };

  const fits = perLoc((i) =>
    weightedLine(
      ages,
      rows.map((r) => r.sensitivities[i]!),
      w,
    ),
  );
  const intercept = smoothed(fits.map((f) => f?.intercept ?? null));
  const slope = smoothed(fits.map((f) => f?.slope ?? null));

  const provisional: NormativeTables = {
    version: opts.version,
    pattern: geometry.pattern,
    source: opts.source,
    method: opts.smooth ? "smooth" : "age-linear",
    nloc,
    blindSpotIndices: [...geometry.blindSpotIndices],
    intercept,
    slope,
    sd: { vf: [], td: [], pd: [] },
    ghRank: opts.ghRank,
    tdLut: [],
    pdLut: [],
    globalLut: [],
    ght: null,
  };
  const tds = rows.map((r) => totalDeviation(provisional, r.sensitivities, r.age));
  const ghs = tds.map((td) => generalHeight(td, opts.ghRank));
  const pds = tds.map((td, k) => patternDeviation(td, ghs[k]!));

  const column = (m: ReadonlyArray<ReadonlyArray<number | null>>, i: number) => m.map((row) => row[i]!);
  const sens = rows.map((r) => r.sensitivities);
  const sd = {
    vf: smoothed(perLoc((i) => weightedMeanSd(column(sens, i), wVisits).sd)),
    td: smoothed(perLoc((i) => weightedMeanSd(column(tds, i), wVisits).sd)),
    pd: smoothed(perLoc((i) => weightedMeanSd(column(pds, i), wVisits).sd)),
  };
  const lut = (m: ReadonlyArray<ReadonlyArray<number | null>>) => {
    if (opts.pooledLuts) {
      const stats = perLoc((i) => weightedMeanSd(column(m, i), wVisits));
      const z: number[] = [],
        wz: number[] = [];
      for (const i of locs)
        m.forEach((row, k) => {
          z.push((row[i]! - stats[i]!.mean) / stats[i]!.sd);
          wz.push(wVisits[k]!);
        });
      const qz = weightedQuantiles(z, wz, lutProbabilities);
      return lutProbabilities.map((_, p) => stats.map((st) => (st === null ? null : st.mean + st.sd * qz[p]!)));
    }
    const q = perLoc((i) => weightedQuantiles(column(m, i), wVisits, lutProbabilities));
    return lutProbabilities.map((_, p) => q.map((v) => (v === null ? null : v[p]!)));
  };
  const withLuts: NormativeTables = { ...provisional, sd, tdLut: lut(tds), pdLut: lut(pds) };

  const gl = rows.map((r, k) => globalIndices(withLuts, geometry, r.sensitivities, tds[k]!, pds[k]!, r.age));
  const gq = {} as Record<GlobalIndexName, number[]>;
  for (const name of globalIndexNames) {
    const ps = lutProbabilities.map((p) => (higherIsBetter.has(name) ? p : 1 - p));
    gq[name] = weightedQuantiles(
      gl.map((g) => g[name]),
      wVisits,
      ps,
    );
  }
  const globalLut = lutProbabilities.map((_, p) => {
    const row = {} as Record<GlobalIndexName, number>;
    for (const name of globalIndexNames) row[name] = gq[name][p]!;
    return row;
  });
  return withGhtLimits({ ...withLuts, globalLut }, geometry, rows);
}
