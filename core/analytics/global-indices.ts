import { generalHeight } from "./pointwise.ts";
import {
  globalIndexNames,
  higherIsBetter,
  lutProbabilities,
  type GlobalIndexName,
  type LocationVector,
  type NormativeTables,
  type ProbabilityLevel,
} from "./normative/tables.ts";
import { visualFieldIndex } from "./vfi.ts";
import type { PatternGeometry } from "./patterns.ts";

export type GlobalIndices = Record<GlobalIndexName, number>;

/**
 * visualFields' global indices (gdef, weighted): msens / ssens = mean and SD of sensitivity; tmd / tsd = weighted mean and
 * SD of TD with weights 1/SD_TD(loc); pmd / psd the same on PD with 1/SD_PD(loc), the SDs in Hmisc's wtd.var form with
 * raw frequency weights, sum w (x - m)^2 / (sum w - 1); gh; vfi. Blind spots excluded.
 * field-deviations.ts computes the same for deviationIndices in its one pass: a change here is made there too
 * (tests/analytics/field-deviations.test.ts fails until both agree to the bit).
 */
export function globalIndices(
  nv: NormativeTables,
  geometry: PatternGeometry,
  sensitivities: LocationVector,
  td: LocationVector,
  pd: LocationVector,
  age: number,
  /** The PD and TD probability maps and the general height, when already computed (saves recomputing them). */
  maps?: {
    readonly tdp: ReadonlyArray<ProbabilityLevel | null>;
    readonly pdp: ReadonlyArray<ProbabilityLevel | null>;
    readonly gh?: number;
  },
): GlobalIndices {
  // One pass for the means, a second for the spreads (two-pass keeps the variances accurate).
  let n = 0,
    ss = 0,
    swt = 0,
    swtx = 0,
    swp = 0,
    swpx = 0;
  for (let i = 0; i < nv.nloc; i++) {
    const ti = td[i],
      pi = pd[i],
      si = sensitivities[i];
    if (ti == null || pi == null || si == null) continue;
    const wt = 1 / nv.sd.td[i]!,
      wp = 1 / nv.sd.pd[i]!;
    n++;
    ss += si;
    swt += wt;
    swtx += wt * ti;
    swp += wp;
    swpx += wp * pi;
  }
  const msens = ss / n,
    tmd = swtx / swt,
    pmd = swpx / swp;
  let vs = 0,
    vt = 0,
    vp = 0;
  for (let i = 0; i < nv.nloc; i++) {
    const ti = td[i],
      pi = pd[i],
      si = sensitivities[i];
    if (ti == null || pi == null || si == null) continue;
    vs += (si - msens) ** 2;
    vt += (ti - tmd) ** 2 / nv.sd.td[i]!;
    vp += (pi - pmd) ** 2 / nv.sd.pd[i]!;
  }
  const levels = maps ? (tmd < -20 ? maps.tdp : maps.pdp) : undefined;
  return {
    msens,
    ssens: Math.sqrt(vs / (n - 1)),
    tmd,
    tsd: Math.sqrt(vt / (swt - 1)),
    pmd,
    psd: Math.sqrt(vp / (swp - 1)),
    gh: maps?.gh ?? generalHeight(td, nv.ghRank),
    vfi: visualFieldIndex(nv, geometry, sensitivities, td, pd, age, tmd, levels),
  };
}

/**
 * Humphrey's classic forms (Heijl et al.), for comparison: MD = sum(TD/s^2)/sum(1/s^2),
 * PSD^2 = mean(s^2) * sum((TD - MD)^2 / s^2) / (n - 1), s = SD_TD(loc). The screens show the visualFields
 * forms (tmd, psd) so they agree with the reference implementation; these are exported for research and exports.
 */
export function humphreyMdPsd(nv: NormativeTables, td: LocationVector): { md: number; psd: number } {
  let swx = 0,
    sw = 0,
    ss2 = 0,
    n = 0;
  for (let i = 0; i < td.length; i++) {
    const v = td[i],
      sd = nv.sd.td[i];
    if (v == null || sd == null) continue;
    const w = 1 / (sd * sd);
    swx += v * w;
    sw += w;
    ss2 += sd * sd;
    n++;
  }
  const md = swx / sw;
  let q = 0;
  for (let i = 0; i < td.length; i++) {
    const v = td[i],
      sd = nv.sd.td[i];
    if (v == null || sd == null) continue;
    q += (v - md) ** 2 / (sd * sd);
  }
  return { md, psd: Math.sqrt(((ss2 / n) * q) / (n - 1)) };
}

/** Level of one global index against the controls (strict comparisons, as for pointwise levels). */
const PROBS: readonly ProbabilityLevel[] = [...lutProbabilities];
const BETTER: Readonly<Record<GlobalIndexName, boolean>> = Object.fromEntries(
  globalIndexNames.map((n) => [n, higherIsBetter.has(n)]),
) as Record<GlobalIndexName, boolean>;

export function globalLevel(nv: NormativeTables, name: GlobalIndexName, value: number): ProbabilityLevel {
  const better = BETTER[name];
  for (let i = 0; i < PROBS.length; i++) {
    const q = nv.globalLut[i]![name];
    if (better ? value < q : value > q) return PROBS[i]!;
  }
  return 1;
}

const NAMES: readonly GlobalIndexName[] = [...globalIndexNames];

export function globalLevels(nv: NormativeTables, g: GlobalIndices): Record<GlobalIndexName, ProbabilityLevel> {
  const out = {} as Record<GlobalIndexName, ProbabilityLevel>;
  for (const name of NAMES) out[name] = globalLevel(nv, name, g[name]);
  return out;
}
