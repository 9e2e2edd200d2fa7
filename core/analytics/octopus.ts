/**
 * Octopus-style indices (shared/design/analytics.md "Octopus-style indices" and the accounts seed §9).
 * Defect d = normal - measured (positive = loss). Vectors in pattern order, null where excluded.
 */
export interface OctopusIndices {
  readonly defects: Array<number | null>;
  /** "Defect percent = defect/norm*100, zero if negative." (accounts seed §9) */
  readonly percentDefects: Array<number | null>;
  /** Mean sensitivity as computed (may be negative); see `meanSensitivityForDisplay`. */
  readonly ms: number;
  /** Mean defect. */
  readonly md: number;
  /** Square root of loss variance: sqrt(sum (d - MD)^2 / (n - 1)). */
  readonly slv: number;
}

/**
 * Bebie cumulative defect curve: the defects sorted from the smallest to the largest (rank 1 = best location).
 * A function of the defects rather than a field, so the per-result analysis does not sort when nobody plots it.
 */
export function bebieCurve(defects: ReadonlyArray<number | null>): number[] {
  const out: number[] = [];
  for (const d of defects) if (d !== null && d !== undefined) out.push(d);
  return Array.from(Float64Array.from(out).sort());
}

export function defects(normal: ReadonlyArray<number | null>, measured: ReadonlyArray<number | null>): Array<number | null> {
  return measured.map((m, i) => {
    const n = normal[i];
    return m === null || n === null || n === undefined ? null : n - m;
  });
}

/** "Defect percent = defect/norm*100, zero if negative." (accounts seed §9) */
export function percentDefect(defect: number, norm: number): number {
  if (defect < 0 || norm <= 0) return 0;
  return (defect / norm) * 100;
}

/** "Defect below 5 shows a plus sign." (accounts seed §9); otherwise the defect with 2 decimals. */
export function defectLabel(defect: number | null): string {
  if (defect === null) return "";
  return defect < 5 ? "+" : roundTo(defect, 2).toFixed(2);
}

/** "Mean sensitivity below 0 shows 0." (accounts seed §9) */
export function meanSensitivityForDisplay(ms: number): number {
  return Math.max(ms, 0);
}

/** Round half away from zero to `digits` decimals ("Values to 2 decimals", accounts seed §9). */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  // Nudge by a relative epsilon so 1.005 (stored as 1.00499999...) rounds to 1.01 as a reader expects.
  const r = Math.round(Math.abs(value) * f * (1 + Number.EPSILON)) / f;
  return value < 0 && r !== 0 ? -r : r; // never -0
}

export function octopusIndices(normal: ReadonlyArray<number | null>, measured: ReadonlyArray<number | null>): OctopusIndices {
  const nloc = measured.length;
  const d = new Array<number | null>(nloc);
  const pct = new Array<number | null>(nloc);
  const used = new Float64Array(nloc);
  let n = 0,
    sd = 0,
    sm = 0;
  for (let i = 0; i < nloc; i++) {
    const m = measured[i],
      nr = normal[i];
    if (m === null || m === undefined || nr === null || nr === undefined) {
      d[i] = null;
      pct[i] = null;
      continue;
    }
    const v = nr - m;
    d[i] = v;
    pct[i] = percentDefect(v, nr);
    used[n++] = v;
    sd += v;
    sm += m;
  }
  const md = n ? sd / n : NaN;
  let lv = 0;
  for (let k = 0; k < n; k++) lv += (used[k]! - md) ** 2;
  return {
    defects: d,
    percentDefects: pct,
    ms: n ? sm / n : NaN,
    md,
    slv: n > 1 ? Math.sqrt(lv / (n - 1)) : NaN,
  };
}
