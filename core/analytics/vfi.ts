import type { LocationVector, NormativeTables } from "./normative/tables.ts";
import { normalSensitivity, probabilityMap } from "./pointwise.ts";
import type { PatternGeometry } from "./patterns.ts";

/** VFI location weight (visualFields 1.x): w = 1 / (0.08 (ecc + 0.8)), ecc in degrees. */
export const vfiWeight = (x: number, y: number) => 1 / (0.08 * (Math.hypot(x, y) + 0.8));

/**
 * Visual Field Index as visualFields 1.x computes it (shared/design/analytics.md): per location
 * score = 100 (1 - |TD| / N(loc, age)); 100 where the PD level is normal (> 5 %) when MD >= -20, or where the TD level
 * is normal when MD < -20; 0 where sensitivity < 0; VFI = weighted mean with `vfiWeight`.
 * A result within 1e-9 of 100 is 100 (README trap 2: floating sums of 100s).
 */
export function visualFieldIndex(
  nv: NormativeTables,
  geometry: PatternGeometry,
  sensitivities: LocationVector,
  td: LocationVector,
  pd: LocationVector,
  age: number,
  md: number,
): number {
  const normal = normalSensitivity(nv, age);
  const levels = md >= -20 ? probabilityMap(nv.pdLut, pd) : probabilityMap(nv.tdLut, td);
  let sw = 0, sws = 0;
  for (let i = 0; i < nv.nloc; i++) {
    const t = td[i], n = normal[i], s = sensitivities[i], lv = levels[i];
    if (t === null || t === undefined || n === null || n === undefined || s === null || s === undefined || lv == null) continue;
    const p = geometry.points[i]!;
    const w = vfiWeight(p.x, p.y);
    let score = 100 * (1 - Math.abs(t) / n);
    if (lv > 0.05) score = 100;
    if (s < 0) score = 0;
    sw += w; sws += w * score;
  }
  const vfi = sws / sw;
  return Math.abs(vfi - 100) < 1e-9 ? 100 : vfi;
}
