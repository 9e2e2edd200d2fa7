// The little dense linear algebra SORS needs: symmetric positive-definite solves by Cholesky decomposition.

export type Matrix = number[][];

/** Lower-triangular L with A = L L^T; throws if A is not positive definite. */
export const cholesky = (a: Matrix): Matrix => {
  const n = a.length;
  const l: Matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (s <= 0) throw new Error("cholesky: matrix is not positive definite");
        l[i]![i] = Math.sqrt(s);
      } else l[i]![j] = s / l[j]![j]!;
    }
  }
  return l;
};

/** Solve (L L^T) x = b for one right-hand side. */
export const choleskySolve = (l: Matrix, b: readonly number[]): number[] => {
  const n = l.length;
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i]![k]! * y[k]!;
    y[i] = s / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k]![i]! * x[k]!;
    x[i] = s / l[i]![i]!;
  }
  return x;
};

/** Sub-matrix of rows `rows` and columns `cols`. */
export const subMatrix = (a: Matrix, rows: readonly number[], cols: readonly number[]): Matrix =>
  rows.map((r) => cols.map((c) => a[r]![c]!));
