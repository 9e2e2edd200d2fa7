import { type Matrix, cholesky, choleskySolve, subMatrix } from "./linear-algebra.ts";

// SORS, Sequentially Optimized Reconstruction Strategy (Kucur & Sznitman, PLoS ONE 2017; Kucur et al., TVST 2020).
// From training fields X (locations x fields, centred on their mean mu) a greedy search orders the locations so that the
// first k reconstruct all others best by least squares:  D_k = X Y^T (Y Y^T)^-1,  Y = X[chosen, :],  x = mu + D_k (y - mu_S).
// With C = X X^T / m the same is D_k = C[:, S] C[S, S]^-1; a small ridge keeps C[S, S] well conditioned. The training
// (simulator/perimetry/build-sors.ts) writes the order, mean, covariance and the D_k of each stage to fixtures/sors/.

export interface SorsStage {
  /** The first k locations of the order. */
  readonly chosen: readonly number[];
  /** D_k, locations x k. */
  readonly matrix: Matrix;
}

export interface SorsModel {
  readonly version: number;
  readonly pattern: number;
  readonly label: string;
  readonly ridge: number;
  /** Every location, the most informative first (blind-spot locations last). */
  readonly order: readonly number[];
  readonly mean: readonly number[];
  readonly covariance: Matrix;
  readonly stages: Readonly<Record<string, SorsStage>>;
  readonly training: Readonly<Record<string, unknown>>;
}

/** D for a chosen set: C[:, S] (C[S, S] + ridge I)^-1, as rows of length |S|. */
export const reconstructionMatrix = (covariance: Matrix, chosen: readonly number[], ridge: number): Matrix => {
  if (chosen.length === 0) return covariance.map(() => []);
  const css = subMatrix(covariance, chosen, chosen).map((row, i) => row.map((v, j) => (i === j ? v + ridge : v)));
  const l = cholesky(css);
  // Row i of D solves (C_SS + rI) d_i = C[S, i] (C_SS is symmetric).
  return covariance.map((_, i) =>
    choleskySolve(
      l,
      chosen.map((s) => covariance[s]![i]!),
    ),
  );
};

/** Reconstruct a whole field from the locations measured so far (any subset): mu + D (y - mu_S). */
export const reconstruct = (model: SorsModel, measured: ReadonlyMap<number, number>): number[] => {
  const chosen = [...measured.keys()];
  const d = reconstructionMatrix(model.covariance, chosen, model.ridge);
  const centred = chosen.map((i) => measured.get(i)! - model.mean[i]!);
  return model.mean.map((m, i) => m + d[i]!.reduce((s, w, j) => s + w * centred[j]!, 0));
};

/** Reconstruct with a stored stage matrix (the final SORS estimate). */
export const reconstructStage = (model: SorsModel, stage: SorsStage, y: readonly number[]): number[] =>
  model.mean.map((m, i) => m + stage.matrix[i]!.reduce((s, w, j) => s + w * (y[j]! - model.mean[stage.chosen[j]!]!), 0));

/** Residual sum of squares over `targets` when reconstructing from `chosen` (training objective). */
export const residualVariance = (covariance: Matrix, chosen: readonly number[], targets: readonly number[], ridge: number): number => {
  if (chosen.length === 0) return targets.reduce((s, i) => s + covariance[i]![i]!, 0);
  const css = subMatrix(covariance, chosen, chosen).map((row, i) => row.map((v, j) => (i === j ? v + ridge : v)));
  const l = cholesky(css);
  let total = 0;
  for (const i of targets) {
    const c = chosen.map((s) => covariance[s]![i]!);
    const w = choleskySolve(l, c);
    total += covariance[i]![i]! - w.reduce((s, wj, j) => s + wj * c[j]!, 0);
  }
  return total;
};

/** Greedy order: repeatedly add the location that most lowers the residual over all non-excluded locations. */
export const greedyOrder = (covariance: Matrix, excluded: readonly number[], ridge: number): number[] => {
  const n = covariance.length;
  const targets = [...Array(n).keys()].filter((i) => !excluded.includes(i));
  const chosen: number[] = [];
  const left = new Set(targets);
  while (left.size > 0) {
    let best = -1;
    let bestErr = Infinity;
    for (const c of left) {
      const err = residualVariance(covariance, [...chosen, c], targets, ridge);
      if (err < bestErr - 1e-9 || (Math.abs(err - bestErr) <= 1e-9 && c < best)) {
        bestErr = err;
        best = c;
      }
    }
    chosen.push(best);
    left.delete(best);
  }
  return [...chosen, ...excluded];
};

/** Mean and covariance (divided by m) of fields given as rows (fields x locations). */
export const meanAndCovariance = (fields: readonly (readonly number[])[]): { mean: number[]; covariance: Matrix } => {
  const m = fields.length;
  const n = fields[0]!.length;
  const mean = new Array<number>(n).fill(0);
  for (const f of fields) for (let i = 0; i < n; i++) mean[i]! += f[i]! / m;
  const covariance: Matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const f of fields)
    for (let i = 0; i < n; i++) {
      const di = f[i]! - mean[i]!;
      const row = covariance[i]!;
      for (let j = i; j < n; j++) row[j]! += (di * (f[j]! - mean[j]!)) / m;
    }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) covariance[i]![j] = covariance[j]![i]!;
  return { mean, covariance };
};
