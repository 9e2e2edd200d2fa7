import type { GlobalIndices } from "./global-indices.ts";
import { lutProbabilities, type LocationVector, type NormativeTables, type ProbabilityLevel } from "./normative/tables.ts";
import type { PatternGeometry } from "./patterns.ts";
import { limitsByLocation } from "./pointwise.ts";
import { vfiWeight } from "./vfi.ts";

/**
 * TD, PD, their probability levels and the global indices of one field in a few passes over typed arrays: the numbers
 * of pointwise.ts (deviationFromNormal, generalHeight, patternDeviation, probabilityMap), globalIndices and
 * visualFieldIndex, bit for bit (the same operations in the same order; tests/analytics/field-deviations.test.ts holds
 * them together on every pattern with normals). Those functions stay the readable definitions and serve the other
 * callers; this one serves deviationIndices, which every analysed result goes through, and `isopter analyse`, which
 * runs it 100,000 times a file: written location by location into numbers, not arrays of boxed numbers and nulls,
 * it is about four times as fast.
 *
 * The results are views of arrays reused by the next call: read or copy them before calling again.
 */
export interface FieldIndices {
  readonly gh: number;
  readonly global: GlobalIndices;
  /** How many locations the TD (PD) probability map puts at 5% or less. */
  readonly tdpUnder5: number;
  readonly pdpUnder5: number;
}
export interface FieldDeviations extends FieldIndices {
  /** By location; NaN where visualFields has NA (no normal, or not tested). */
  readonly td: Float64Array;
  readonly pd: Float64Array;
  /** The probability level by location; NaN where the map has none. */
  readonly tdp: Float64Array;
  readonly pdp: Float64Array;
}

const PROBS: readonly ProbabilityLevel[] = [...lutProbabilities];
const LEVELS = PROBS.length;

/** A database's vectors as typed arrays (NaN where a value is missing), with what the passes derive from them. */
interface Prepared {
  readonly nloc: number;
  readonly sdTd: Float64Array;
  readonly sdPd: Float64Array;
  /** 1 / sd: the weights of the means (the same double as dividing at each location). */
  readonly weightTd: Float64Array;
  readonly weightPd: Float64Array;
  /** The look-up limits location by location (limitsByLocation). */
  readonly tdLimits: Float64Array;
  readonly pdLimits: Float64Array;
  /** By location, the limit a value is under exactly when its level is 5% or less (under5Limits). */
  readonly tdUnder5: Float64Array;
  readonly pdUnder5: Float64Array;
  readonly intercept: Float64Array;
  readonly slope: Float64Array;
  readonly vfiWeights: Float64Array;
  /** 1 at the pattern's blind spots, which the global indices and the VFI leave out (withoutBlindSpots). */
  readonly blindSpot: Uint8Array;
  readonly scratch: {
    td: Float64Array;
    pd: Float64Array;
    tdp: Float64Array;
    pdp: Float64Array;
    /** AT5_NONE, AT5_UNDER or AT5_OVER by location: the map's level against 5%. */
    tdAt5: Uint8Array;
    pdAt5: Uint8Array;
    top: Float64Array;
  };
}

const vector = (v: LocationVector, n: number) => Float64Array.from({ length: n }, (_, i) => v[i] ?? Number.NaN);

const prepared = new WeakMap<NormativeTables, WeakMap<PatternGeometry, Prepared>>();

function prepare(nv: NormativeTables, geometry: PatternGeometry): Prepared {
  let byGeometry = prepared.get(nv);
  if (!byGeometry) prepared.set(nv, (byGeometry = new WeakMap()));
  let p = byGeometry.get(geometry);
  if (!p) {
    const n = nv.nloc;
    const sdTd = vector(nv.sd.td, n),
      sdPd = vector(nv.sd.pd, n);
    const tdLimits = limitsByLocation(nv.tdLut),
      pdLimits = limitsByLocation(nv.pdLut);
    p = {
      nloc: n,
      sdTd,
      sdPd,
      weightTd: sdTd.map((sd) => 1 / sd),
      weightPd: sdPd.map((sd) => 1 / sd),
      tdLimits,
      pdLimits,
      tdUnder5: under5Limits(tdLimits, n),
      pdUnder5: under5Limits(pdLimits, n),
      intercept: vector(nv.intercept, n),
      slope: vector(nv.slope, n),
      vfiWeights: Float64Array.from({ length: n }, (_, i) => {
        const point = geometry.points[i];
        return point ? vfiWeight(point.x, point.y) : Number.NaN;
      }),
      blindSpot: Uint8Array.from({ length: n }, (_, i) => (geometry.blindSpotIndices.includes(i) ? 1 : 0)),
      scratch: {
        td: new Float64Array(n),
        pd: new Float64Array(n),
        tdp: new Float64Array(n),
        pdp: new Float64Array(n),
        tdAt5: new Uint8Array(n),
        pdAt5: new Uint8Array(n),
        top: new Float64Array(nv.ghRank),
      },
    };
    byGeometry.set(geometry, p);
  }
  return p;
}

/**
 * probabilityMap at one location: the first level whose limit the value is under (strict), else 1; NaN where the map
 * has none (no value, or no first limit).
 */
function levelAt(limits: Float64Array, loc: number, value: number): number {
  const at = loc * LEVELS;
  if (Number.isNaN(value) || Number.isNaN(limits[at]!)) return Number.NaN;
  for (let k = 0; k < LEVELS; k++) if (value < limits[at + k]!) return PROBS[k]!;
  return 1;
}

/** Where a location's level stands against 5%: no level, 5% or less, above. */
const AT5_NONE = 0,
  AT5_UNDER = 1,
  AT5_OVER = 2;
const FIVE_PERCENT = PROBS.indexOf(0.05);

/**
 * A level is 5% or less when the value is under one of the limits up to 5% (levelAt stops at the first), that is
 * under the largest of them that exists; NaN where the location has no first limit (no level at all).
 */
function under5Limits(limits: Float64Array, n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, loc) => {
    const at = loc * LEVELS;
    if (Number.isNaN(limits[at]!)) return Number.NaN;
    let largest = limits[at]!;
    for (let k = 1; k <= FIVE_PERCENT; k++) if (limits[at + k]! > largest) largest = limits[at + k]!;
    return largest;
  });
}

/** levelAt's level against 5%, in one comparison. */
function at5(under5: Float64Array, loc: number, value: number): number {
  const limit = under5[loc]!;
  if (Number.isNaN(value) || Number.isNaN(limit)) return AT5_NONE;
  return value < limit ? AT5_UNDER : AT5_OVER;
}

/**
 * deviationIndices' numbers for `thresholds` in pattern order (null = not tested) at `age`. The globalIndices part
 * reads the thresholds without the blind spots, as withoutBlindSpots gives them.
 */
export function fieldDeviations(nv: NormativeTables, geometry: PatternGeometry, thresholds: LocationVector, age: number): FieldDeviations {
  return passes(nv, geometry, thresholds, age, true) as FieldDeviations;
}

/**
 * fieldDeviations without the probability maps (their counts at 5% stay): what `isopter analyse` prints in its table.
 * The indices need of each level only where it stands against 5% (the VFI), one comparison instead of a search.
 */
export function fieldIndices(nv: NormativeTables, geometry: PatternGeometry, thresholds: LocationVector, age: number): FieldIndices {
  return passes(nv, geometry, thresholds, age, false);
}

function passes(
  nv: NormativeTables,
  geometry: PatternGeometry,
  thresholds: LocationVector,
  age: number,
  maps: boolean,
): FieldIndices | FieldDeviations {
  const p = prepare(nv, geometry);
  const { td, pd, tdp, pdp, tdAt5, pdAt5, top } = p.scratch;
  const { blindSpot } = p;
  const n = p.nloc;
  const rank = nv.ghRank;

  // TD (deviationFromNormal of normalSensitivity: the normal computed as it computes it) and the general height: the
  // rank-th highest TD, kept as generalHeight keeps it.
  let counted = 0,
    kept = 0;
  for (let i = 0; i < n; i++) {
    const s = thresholds[i];
    const t = s === null || s === undefined ? Number.NaN : s - (p.intercept[i]! + p.slope[i]! * age);
    td[i] = t;
    if (Number.isNaN(t)) continue;
    counted++;
    if (kept === rank && t <= top[rank - 1]!) continue;
    let j = kept < rank ? kept++ : rank - 1;
    while (j > 0 && top[j - 1]! < t) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = t;
  }
  if (counted < rank) throw new Error(`general height needs at least ${rank} locations, got ${counted}`);
  const gh = top[rank - 1]!;

  // PD, both maps and the sums of the means (globalIndices' first pass).
  let tdpUnder5 = 0,
    pdpUnder5 = 0;
  let count = 0,
    ss = 0,
    swt = 0,
    swtx = 0,
    swp = 0,
    swpx = 0;
  for (let i = 0; i < n; i++) {
    const t = td[i]!;
    const d = t - gh;
    pd[i] = d;
    const tdClass = at5(p.tdUnder5, i, t),
      pdClass = at5(p.pdUnder5, i, d);
    tdAt5[i] = tdClass;
    pdAt5[i] = pdClass;
    if (tdClass === AT5_UNDER) tdpUnder5++;
    if (pdClass === AT5_UNDER) pdpUnder5++;
    if (maps) {
      tdp[i] = levelAt(p.tdLimits, i, t);
      pdp[i] = levelAt(p.pdLimits, i, d);
    }
    if (Number.isNaN(t) || blindSpot[i] === 1) continue;
    const s = thresholds[i]!;
    const wt = p.weightTd[i]!,
      wp = p.weightPd[i]!;
    count++;
    ss += s;
    swt += wt;
    swtx += wt * t;
    swp += wp;
    swpx += wp * d;
  }
  const msens = ss / count,
    tmd = swtx / swt,
    pmd = swpx / swp;

  // The spreads (globalIndices' second pass) and the VFI (visualFieldIndex, its levels from the map MD selects).
  const levels = tmd < -20 ? tdAt5 : pdAt5;
  let vs = 0,
    vt = 0,
    vp = 0,
    sw = 0,
    sws = 0;
  for (let i = 0; i < n; i++) {
    const t = td[i]!;
    if (Number.isNaN(t) || blindSpot[i] === 1) continue;
    const s = thresholds[i]!,
      d = pd[i]!;
    vs += (s - msens) ** 2;
    vt += (t - tmd) ** 2 / p.sdTd[i]!;
    vp += (d - pmd) ** 2 / p.sdPd[i]!;
    const a = p.intercept[i]!;
    if (Number.isNaN(a)) continue;
    const normalNow = a + p.slope[i]! * age;
    const w = p.vfiWeights[i]!;
    let score = 100 * (1 - Math.abs(t) / normalNow);
    if (levels[i] === AT5_OVER) score = 100;
    if (s < 0) score = 0;
    sw += w;
    sws += w * score;
  }
  const vfi = sws / sw;
  const global = {
    msens,
    ssens: Math.sqrt(vs / (count - 1)),
    tmd,
    tsd: Math.sqrt(vt / (swt - 1)),
    pmd,
    psd: Math.sqrt(vp / (swp - 1)),
    gh,
    vfi: Math.abs(vfi - 100) < 1e-9 ? 100 : vfi,
  };
  return maps ? { td, pd, tdp, pdp, gh, global, tdpUnder5, pdpUnder5 } : { gh, global, tdpUnder5, pdpUnder5 };
}

/** A typed vector as the analyses' arrays have it: null where it holds NaN. (A loop: Array.from with a map function
 * took longer than the whole pass.) */
export function nullWhereNaN<T extends number>(v: Float64Array): Array<T | null> {
  const out = new Array<T | null>(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    out[i] = Number.isNaN(x) ? null : (x as T);
  }
  return out;
}
