// Sample fields for the plot tests and the sample renders: a normal hill of vision with a superior arcuate defect.

import { getPattern } from "../../core/analytics/patterns.ts";
import { Pattern } from "../../core/model/enums.ts";
import { toProbabilityLevel } from "../../core/plots/symbols.ts";
import type { ProbabilityLevel } from "../../core/plots/scene.ts";

/** Age-typical normal threshold at (x, y) degrees: about 32 dB at fixation, falling 0.3 dB per degree. */
export const normalAt = (x: number, y: number) => 32 - 0.3 * Math.hypot(x, y);

/** A superior nasal arcuate defect of up to 25 dB plus the blind spot. */
export function sampleThresholds(pattern: Pattern = Pattern.P24_2): number[] {
  const g = getPattern(pattern);
  return g.points.map((p, i) => {
    if (g.blindSpotIndices.includes(i)) return -2;
    const ecc = Math.hypot(p.x, p.y);
    const arcuate = p.y > 0 && p.x < 6 && ecc > 8 && ecc < 26 ? Math.min(25, (ecc - 6) * 2.2) * (p.x < -10 ? 1 : 0.5) : 0;
    return Math.round((normalAt(p.x, p.y) - arcuate + (((i * 7) % 5) - 2) * 0.6) * 10) / 10;
  });
}

export function sampleNormals(pattern: Pattern = Pattern.P24_2): number[] {
  return getPattern(pattern).points.map((p) => Math.round(normalAt(p.x, p.y) * 10) / 10);
}

export function sampleDefects(pattern: Pattern = Pattern.P24_2): number[] {
  const t = sampleThresholds(pattern);
  return sampleNormals(pattern).map((nv, i) => Math.round((nv - t[i]!) * 10) / 10);
}

/** TD = measured - normal; levels by depth, as a stand-in for the normative quantiles. */
export function sampleTotalDeviation(pattern: Pattern = Pattern.P24_2): number[] {
  return sampleDefects(pattern).map((d) => -d);
}

export function sampleLevels(pattern: Pattern = Pattern.P24_2): ProbabilityLevel[] {
  return sampleTotalDeviation(pattern).map((td) =>
    toProbabilityLevel(td < -12 ? 0.004 : td < -8 ? 0.009 : td < -6 ? 0.019 : td < -4 ? 0.04 : 0.5),
  );
}
