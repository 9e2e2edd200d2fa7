/** Solves A x = b (small dense systems) by Gaussian elimination with partial pivoting. */
export function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[piv]![col]!)) piv = r;
    [m[col], m[piv]] = [m[piv]!, m[col]!];
    const p = m[col]![col]!;
    if (p === 0) throw new Error("singular system");
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / p;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let c = r + 1; c < n; c++) s -= m[r]![c]! * x[c]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** Least-squares coefficients of y on the columns of X (normal equations; X is small and well conditioned here). */
export function leastSquares(x: ReadonlyArray<readonly number[]>, y: readonly number[], w?: readonly number[]): number[] {
  const k = x[0]!.length;
  const xtx = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const xty = new Array<number>(k).fill(0);
  x.forEach((row, i) => {
    const wi = w ? w[i]! : 1;
    for (let a = 0; a < k; a++) {
      xty[a]! += wi * row[a]! * y[i]!;
      for (let b = 0; b < k; b++) xtx[a]![b]! += wi * row[a]! * row[b]!;
    }
  });
  return solveLinear(xtx, xty);
}

/** Weighted simple linear regression y = a + b x. */
export function weightedLine(x: readonly number[], y: readonly number[], w: readonly number[]): { intercept: number; slope: number } {
  let sw = 0,
    sx = 0,
    sy = 0;
  for (let i = 0; i < x.length; i++) {
    sw += w[i]!;
    sx += w[i]! * x[i]!;
    sy += w[i]! * y[i]!;
  }
  const mx = sx / sw,
    my = sy / sw;
  let sxy = 0,
    sxx = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += w[i]! * (x[i]! - mx) * (y[i]! - my);
    sxx += w[i]! * (x[i]! - mx) ** 2;
  }
  const slope = sxy / sxx;
  return { intercept: my - slope * mx, slope };
}
