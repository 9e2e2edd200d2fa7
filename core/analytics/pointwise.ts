import { lutProbabilities, type LocationVector, type NormativeTables, type ProbabilityLevel } from "./normative/tables.ts";

/**
 * Pointwise deviations, following visualFields 1.0.8 (Marín-Franch & Swanson, Apache-2.0) and
 * shared/design/analytics.md. Vectors are in pattern order with null at blind spots.
 */

/** Age-corrected normal sensitivity N(loc, age) = intercept + slope * age (null at blind spots). */
export function normalSensitivity(nv: NormativeTables, age: number): Array<number | null> {
  return nv.intercept.map((a, i) => (a === null ? null : a + nv.slope[i]! * age));
}

/**
 * TD = sensitivity - (intercept + slope * age), computed in this exact order in plain double arithmetic: some
 * reference TDs sit exactly on a look-up limit and the level test is strict (README trap 1).
 */
export function totalDeviation(nv: NormativeTables, sensitivities: LocationVector, age: number): Array<number | null> {
  const blind = new Set(nv.blindSpotIndices);
  return sensitivities.map((s, i) => {
    const a = nv.intercept[i];
    if (blind.has(i) || s === null || a === null || a === undefined) return null;
    return s - (a + nv.slope[i]! * age);
  });
}

/**
 * General height: the k-th highest TD with blind spots removed, k = nv.ghRank = floor((1 - 0.85) * n)
 * ("display threshold offset is the 7th highest value" on 24-2, the accounts seed §9).
 */
export function generalHeight(td: LocationVector, rank: number): number {
  const values = td.filter((v): v is number => v !== null).sort((a, b) => b - a);
  const v = values[rank - 1];
  if (v === undefined) throw new Error(`general height needs at least ${rank} locations, got ${values.length}`);
  return v;
}

/** PD = TD - GH. */
export function patternDeviation(td: LocationVector, gh: number): Array<number | null> {
  return td.map((v) => (v === null ? null : v - gh));
}

/**
 * The probability level of a value at one location: the smallest level p with value < q(p) (strict), else 1.
 * Monotone: a larger value never gets a smaller level.
 */
export function probabilityLevel(lut: ReadonlyArray<LocationVector>, loc: number, value: number): ProbabilityLevel {
  for (let i = 0; i < lutProbabilities.length; i++) {
    const q = lut[i]![loc];
    if (q !== null && q !== undefined && value < q) return lutProbabilities[i]!;
  }
  return 1;
}

export function probabilityMap(lut: ReadonlyArray<LocationVector>, values: LocationVector): Array<ProbabilityLevel | null> {
  return values.map((v, i) => (v === null || lut[0]![i] === null ? null : probabilityLevel(lut, i, v)));
}
