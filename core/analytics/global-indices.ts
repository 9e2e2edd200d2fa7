import { generalHeight } from "./pointwise.ts";
import {
  globalIndexNames, higherIsBetter, lutProbabilities,
  type GlobalIndexName, type LocationVector, type NormativeTables, type ProbabilityLevel,
} from "./normative/tables.ts";
import { visualFieldIndex } from "./vfi.ts";
import type { PatternGeometry } from "./patterns.ts";

export type GlobalIndices = Record<GlobalIndexName, number>;

/** Weighted mean and the unbiased weighted SD with raw frequency weights: sum w (x - m)^2 / (sum w - 1) (Hmisc wtd.var). */
function weightedMeanSd(values: readonly number[], weights: readonly number[]): { mean: number; sd: number } {
  let sw = 0, swx = 0;
  for (let i = 0; i < values.length; i++) { sw += weights[i]!; swx += weights[i]! * values[i]!; }
  const mean = swx / sw;
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += weights[i]! * (values[i]! - mean) ** 2;
  return { mean, sd: Math.sqrt(ss / (sw - 1)) };
}

function meanSd(values: readonly number[]): { mean: number; sd: number } {
  const n = values.length;
  let s = 0;
  for (const v of values) s += v;
  const mean = s / n;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  return { mean, sd: Math.sqrt(ss / (n - 1)) };
}

/**
 * visualFields' global indices (gdef, weighted): msens / ssens = mean and SD of sensitivity; tmd / tsd = weighted mean and
 * SD of TD with weights 1/SD_TD(loc); pmd / psd the same on PD with 1/SD_PD(loc); gh; vfi. Blind spots excluded.
 */
export function globalIndices(
  nv: NormativeTables,
  geometry: PatternGeometry,
  sensitivities: LocationVector,
  td: LocationVector,
  pd: LocationVector,
  age: number,
): GlobalIndices {
  const s: number[] = [], t: number[] = [], p: number[] = [], wt: number[] = [], wp: number[] = [];
  for (let i = 0; i < nv.nloc; i++) {
    const ti = td[i], pi = pd[i], si = sensitivities[i];
    if (ti === null || ti === undefined || pi === null || pi === undefined || si === null || si === undefined) continue;
    s.push(si); t.push(ti); p.push(pi);
    wt.push(1 / nv.sd.td[i]!); wp.push(1 / nv.sd.pd[i]!);
  }
  const ms = meanSd(s), tm = weightedMeanSd(t, wt), pm = weightedMeanSd(p, wp);
  return {
    msens: ms.mean, ssens: ms.sd, tmd: tm.mean, tsd: tm.sd, pmd: pm.mean, psd: pm.sd,
    gh: generalHeight(td, nv.ghRank),
    vfi: visualFieldIndex(nv, geometry, sensitivities, td, pd, age, tm.mean),
  };
}

/**
 * Humphrey's classic forms (Heijl et al.), for comparison: MD = sum(TD/s^2)/sum(1/s^2),
 * PSD^2 = mean(s^2) * sum((TD - MD)^2 / s^2) / (n - 1), s = SD_TD(loc). The screens show the visualFields
 * forms (tmd, psd) so they agree with the reference implementation; these are exported for research and exports.
 */
export function humphreyMdPsd(nv: NormativeTables, td: LocationVector): { md: number; psd: number } {
  let swx = 0, sw = 0, ss2 = 0, n = 0;
  const vals: Array<[number, number]> = [];
  td.forEach((v, i) => {
    const sd = nv.sd.td[i];
    if (v === null || sd === null || sd === undefined) return;
    const w = 1 / (sd * sd);
    swx += v * w; sw += w; ss2 += sd * sd; n++;
    vals.push([v, w]);
  });
  const md = swx / sw;
  let q = 0;
  for (const [v, w] of vals) q += (v - md) ** 2 * w;
  return { md, psd: Math.sqrt((ss2 / n) * q / (n - 1)) };
}

/** Level of one global index against the controls (strict comparisons, as for pointwise levels). */
export function globalLevel(nv: NormativeTables, name: GlobalIndexName, value: number): ProbabilityLevel {
  const better = higherIsBetter.has(name);
  for (let i = 0; i < lutProbabilities.length; i++) {
    const q = nv.globalLut[i]![name];
    if (better ? value < q : value > q) return lutProbabilities[i]!;
  }
  return 1;
}

export function globalLevels(nv: NormativeTables, g: GlobalIndices): Record<GlobalIndexName, ProbabilityLevel> {
  const out = {} as Record<GlobalIndexName, ProbabilityLevel>;
  for (const name of globalIndexNames) out[name] = globalLevel(nv, name, g[name]);
  return out;
}
