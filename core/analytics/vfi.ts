import type { LocationVector, NormativeTables, ProbabilityLevel } from "./normative/tables.ts";
import { probabilityLevel } from "./pointwise.ts";
import type { PatternGeometry } from "./patterns.ts";

/** VFI location weight (visualFields 1.x): w = 1 / (0.08 (ecc + 0.8)), ecc in degrees. */
export const vfiWeight = (x: number, y: number) => 1 / (0.08 * (Math.hypot(x, y) + 0.8));

const weightCache = new WeakMap<PatternGeometry, Float64Array>();
function vfiWeights(geometry: PatternGeometry): Float64Array {
  let w = weightCache.get(geometry);
  if (!w) {
    w = Float64Array.from(geometry.points, (p) => vfiWeight(p.x, p.y));
    weightCache.set(geometry, w);
  }
  return w;
}

/**
 * Visual Field Index as visualFields 1.x computes it (shared/design/analytics.md): per location
 * score = 100 (1 - |TD| / N(loc, age)); 100 where the PD level is normal (> 5 %) when MD >= -20, or where the TD level
 * is normal when MD < -20; 0 where sensitivity < 0; VFI = weighted mean with `vfiWeight`.
 * A result within 1e-9 of 100 is 100 (README trap 2: floating sums of 100s).
 * `levels` may pass the PD (MD >= -20) or TD (MD < -20) probability map already computed.
 * field-deviations.ts computes the same for deviationIndices in its one pass: a change here is made there too
 * (tests/analytics/field-deviations.test.ts fails until both agree to the bit).
 */
export function visualFieldIndex(
  nv: NormativeTables,
  geometry: PatternGeometry,
  sensitivities: LocationVector,
  td: LocationVector,
  pd: LocationVector,
  age: number,
  md: number,
  levels?: ReadonlyArray<ProbabilityLevel | null>,
): number {
  const useTd = md < -20;
  const lut = useTd ? nv.tdLut : nv.pdLut;
  const dev = useTd ? td : pd;
  const weights = vfiWeights(geometry);
  let sw = 0,
    sws = 0;
  for (let i = 0; i < nv.nloc; i++) {
    const t = td[i],
      s = sensitivities[i],
      d = dev[i],
      a = nv.intercept[i];
    if (t === null || t === undefined || s === null || s === undefined || d === null || d === undefined || a === null || a === undefined)
      continue;
    const n = a + nv.slope[i]! * age;
    const lv = levels ? levels[i]! : probabilityLevel(lut, i, d);
    const w = weights[i]!;
    let score = 100 * (1 - Math.abs(t) / n);
    if (lv > 0.05) score = 100;
    if (s < 0) score = 0;
    sw += w;
    sws += w * score;
  }
  const vfi = sws / sw;
  return Math.abs(vfi - 100) < 1e-9 ? 100 : vfi;
}
