import { lutProbabilities, type LocationVector, type NormativeTables, type ProbabilityLevel } from "./normative/tables.ts";

/**
 * Pointwise deviations, following visualFields 1.0.8 (Marín-Franch & Swanson, Apache-2.0) and
 * shared/design/analytics.md. Vectors are in pattern order with null at blind spots.
 */

/** Age-corrected normal sensitivity N(loc, age) = intercept + slope * age (null at blind spots). */
export function normalSensitivity(nv: NormativeTables, age: number): Array<number | null> {
  const out = new Array<number | null>(nv.nloc);
  for (let i = 0; i < nv.nloc; i++) {
    const a = nv.intercept[i];
    out[i] = a === null || a === undefined ? null : a + nv.slope[i]! * age;
  }
  return out;
}

/**
 * TD from precomputed normals: s - normal[i] is bit-identical to s - (intercept + slope * age) when `normal` came from
 * `normalSensitivity` (same operations, same order), and saves a pass when both are needed.
 */
export function deviationFromNormal(normal: LocationVector, sensitivities: LocationVector): Array<number | null> {
  const out = new Array<number | null>(sensitivities.length);
  for (let i = 0; i < sensitivities.length; i++) {
    const s = sensitivities[i],
      n = normal[i];
    out[i] = s === null || s === undefined || n === null || n === undefined ? null : s - n;
  }
  return out;
}

/**
 * TD = sensitivity - (intercept + slope * age), computed in this exact order in plain double arithmetic: some
 * reference TDs sit exactly on a look-up limit and the level test is strict (README trap 1).
 */
export function totalDeviation(nv: NormativeTables, sensitivities: LocationVector, age: number): Array<number | null> {
  const out = new Array<number | null>(sensitivities.length);
  for (let i = 0; i < sensitivities.length; i++) {
    const s = sensitivities[i],
      a = nv.intercept[i];
    // The tables are null at blind spots, so those locations come out null too.
    out[i] = s === null || s === undefined || a === null || a === undefined ? null : s - (a + nv.slope[i]! * age);
  }
  return out;
}

/**
 * General height: the k-th highest TD with blind spots removed, k = nv.ghRank = floor((1 - 0.85) * n)
 * ("display threshold offset is the 7th highest value" on 24-2, the accounts seed §9).
 */
export function generalHeight(td: LocationVector, rank: number): number {
  // Keep the `rank` highest values seen so far, in descending order (rank is small: 7 on 24-2).
  const top: number[] = [];
  let count = 0;
  for (const v of td) {
    if (v === null || v === undefined) continue;
    count++;
    if (top.length === rank && v <= top[rank - 1]!) continue;
    let j = top.length < rank ? top.length : rank - 1;
    if (top.length < rank) top.push(v);
    while (j > 0 && top[j - 1]! < v) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = v;
  }
  if (count < rank) throw new Error(`general height needs at least ${rank} locations, got ${count}`);
  return top[rank - 1]!;
}

/** PD = TD - GH. */
export function patternDeviation(td: LocationVector, gh: number): Array<number | null> {
  const out = new Array<number | null>(td.length);
  for (let i = 0; i < td.length; i++) {
    const v = td[i];
    out[i] = v === null || v === undefined ? null : v - gh;
  }
  return out;
}

// Module-local copies: the hot loops below should not go through the module's export bindings.
const PROBS: readonly ProbabilityLevel[] = [...lutProbabilities];
const LEVELS = PROBS.length;

/**
 * The probability level of a value at one location: the smallest level p with value < q(p) (strict), else 1.
 * Monotone: a larger value never gets a smaller level.
 */
export function probabilityLevel(lut: ReadonlyArray<LocationVector>, loc: number, value: number): ProbabilityLevel {
  for (let i = 0; i < LEVELS; i++) {
    const q = lut[i]![loc];
    if (q !== null && q !== undefined && value < q) return PROBS[i]!;
  }
  return 1;
}

export function probabilityMap(lut: ReadonlyArray<LocationVector>, values: LocationVector): Array<ProbabilityLevel | null> {
  const out = new Array<ProbabilityLevel | null>(values.length);
  const flat = limitsByLocation(lut);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined || Number.isNaN(flat[i * LEVELS]!)) {
      out[i] = v === null || v === undefined || lut[0]![i] === null ? null : probabilityLevel(lut, i, v);
      continue;
    }
    // probabilityLevel, reading the location's limits side by side (a map is 54 or more of these a result).
    let level: ProbabilityLevel = 1;
    for (let k = 0, at = i * LEVELS; k < LEVELS; k++, at++)
      if (v < flat[at]!) {
        level = PROBS[k]!;
        break;
      }
    out[i] = level;
  }
  return out;
}

const flatLuts = new WeakMap<ReadonlyArray<LocationVector>, Float64Array>();

/**
 * A look-up table location by location: [loc * lutProbabilities.length + k] = lut[k][loc], NaN where missing (no
 * value is below NaN). Built once per table.
 */
export function limitsByLocation(lut: ReadonlyArray<LocationVector>): Float64Array {
  let flat = flatLuts.get(lut);
  if (flat === undefined) {
    const locations = lut[0]!.length;
    flat = new Float64Array(locations * LEVELS);
    for (let loc = 0; loc < locations; loc++) for (let k = 0; k < LEVELS; k++) flat[loc * LEVELS + k] = lut[k]![loc] ?? Number.NaN;
    flatLuts.set(lut, flat);
  }
  return flat;
}
