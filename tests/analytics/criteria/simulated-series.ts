// Simulated series for the criteria's tests: an eye's age-normal field (the default normative database), a fixed
// defect, test-retest noise from a seed, and a loss growing linearly with time at chosen locations. Not the bench's
// observer (issue 30 §4): a small, fast generator that keeps each property's damage exactly under control.
import { normalSensitivity } from "../../../core/analytics/pointwise.ts";
import { getNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import type { CriteriaVisit } from "../../../core/analytics/progression/criteria/index.ts";
import { Pattern } from "../../../core/model/enums.ts";

export const PATTERN = Pattern.P24_2;
const geometry = getPattern(PATTERN);
export const blindSpots = new Set(geometry.blindSpotIndices);

/** Mulberry32: a tiny seeded generator (the tests' noise must be reproducible from fast-check's seed). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12),
    v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** An arcuate-like cluster of the upper hemifield (nasal step and Bjerrum area, right-eye coordinates). */
export const UPPER_ARC: readonly number[] = geometry.points.flatMap((p, i) => (p.y > 0 && p.y <= 15 && p.x <= 9 && p.x >= -27 ? [i] : []));
export const ALL_LOCATIONS: readonly number[] = geometry.points.flatMap((_, i) => (blindSpots.has(i) ? [] : [i]));

export interface SeriesSpec {
  readonly seed: number;
  readonly visits: number;
  /** Years between visits. */
  readonly interval: number;
  /** SD of the test-retest noise, dB (0: none). */
  readonly noise: number;
  /** dB per year lost at `where`, from the first visit on. */
  readonly rate: number;
  readonly where: readonly number[];
  /** Depth of a fixed defect at the upper arc, dB (the eye's state before the series). */
  readonly defect?: number;
  /** Age at the first visit; later visits age with the dates unless `ageing` is false. */
  readonly age?: number;
  readonly ageing?: boolean;
  /** Map each TD field before it becomes sensitivities (e.g. mirror it). */
  readonly mapTd?: (td: number[]) => number[];
  /** Another pattern (its normals from `normativeVersion`); `where` and the arc are then 24-2's indices, unused. */
  readonly pattern?: Pattern;
  readonly normativeVersion?: string | null;
}

const DAY = 86_400_000;
const START = Date.UTC(2015, 0, 5);

/**
 * Visits `interval` years apart (dates rounded to days); sensitivities = age normal + TD, TD = defect + noise - loss.
 * Not clipped at 0 dB: the floor would flatten any trend, a limit of perimetry rather than of the criteria.
 */
export function simulatedSeries(spec: SeriesSpec): CriteriaVisit[] {
  const geometry = getPattern(spec.pattern ?? PATTERN);
  const nv = getNormativeDatabase(geometry.pattern, spec.normativeVersion ?? null)!;
  const blindSpots = new Set(geometry.blindSpotIndices);
  const random = seeded(spec.seed);
  const where = new Set(spec.where);
  const arc = new Set(UPPER_ARC);
  const noise = Array.from({ length: spec.visits }, () => geometry.points.map(() => gaussian(random) * spec.noise));
  return noise.map((row, k) => {
    const days = Math.round(k * spec.interval * 365.25);
    const years = days / 365.25;
    const age = (spec.age ?? 62) + (spec.ageing === false ? 0 : years);
    const normal = normalSensitivity(nv, age);
    let td = geometry.points.map((_, i) => (arc.has(i) ? -(spec.defect ?? 0) : 0) + row[i]! - (where.has(i) ? spec.rate * years : 0));
    if (spec.mapTd) td = spec.mapTd(td);
    return {
      date: new Date(START + days * DAY).toISOString().slice(0, 10),
      age,
      thresholds: td.map((d, i) => (blindSpots.has(i) ? null : normal[i]! + d)),
    };
  });
}

/** The index of the location mirrored across the horizontal midline (x, y) -> (x, -y). */
export const mirrorIndex: readonly number[] = geometry.points.map((p) => geometry.points.findIndex((q) => q.x === p.x && q.y === -p.y));
