import { Pattern } from "../model/enums.ts";
import { getPattern, type PatternGeometry } from "./patterns.ts";
import { probabilityLevel } from "./pointwise.ts";
import type { GhtLimits, LocationVector, NormativeTables, ProbabilityLevel } from "./normative/tables.ts";
import { weightedQuantiles } from "./statistics/weighted-quantile.ts";

/**
 * Glaucoma Hemifield Test (Åsman & Heijl 1992), on 24-2 (shared/design/analytics.md):
 * five superior sectors, each compared with its mirror image below the horizontal meridian.
 * Sector locations are the 1-based right-eye 24-2 indices of analytics.md ({1,2,5,6,7,8}, {3,4,9,10},
 * {11,12,19,20,21}, {13,14,15,16}, {22,23,24}); the lower sector is the same points with y negated.
 * Point score from the PD probability level: normal (> 5 %) 0; 2-5 % 2; 1-2 % 5; <= 1 %: 10 x |PD / PD_1%-limit|
 * (at least 10), so deeper defects weigh more. Sector score = sum of point scores; difference = upper - lower.
 * Limits are the 0.5 / 99.5 % and 1.5 / 98.5 % quantiles of the control differences (built with the tables).
 */
export const GHT_SECTORS_1_BASED: ReadonlyArray<readonly number[]> = [
  [1, 2, 5, 6, 7, 8],
  [3, 4, 9, 10],
  [11, 12, 19, 20, 21],
  [13, 14, 15, 16],
  [22, 23, 24],
];

export type GhtOutcome =
  | "outside normal limits"
  | "borderline"
  | "general reduction of sensitivity"
  | "abnormally high sensitivity"
  | "within normal limits";

export const GHT_LIMIT_PROBABILITIES = [0.005, 0.015, 0.985, 0.995] as const;

export interface GhtResult {
  readonly outcome: GhtOutcome;
  readonly upperScores: number[];
  readonly lowerScores: number[];
  readonly differences: number[];
}

/**
 * Patterns the GHT is defined for: 24-2, and 30-2, which holds every 24-2 sector location (Humphrey runs it on both).
 * G, 10-2 and the screenings lack the sectors' locations: no GHT ("not defined for this pattern").
 */
export const ghtPatterns: ReadonlySet<Pattern> = new Set([Pattern.P24_2, Pattern.P30_2]);

/** Upper and mirrored lower 0-based indices of each sector for a geometry (sectors located by their 24-2 coordinates). */
const sectorCache = new WeakMap<PatternGeometry, Array<{ upper: number[]; lower: number[] }>>();
export function ghtSectors(geometry: PatternGeometry): Array<{ upper: number[]; lower: number[] }> {
  const cached = sectorCache.get(geometry);
  if (cached) return cached;
  const key = (x: number, y: number) => `${x},${y}`;
  const index = new Map(geometry.points.map((p, i) => [key(p.x, p.y), i]));
  const p24 = getPattern(Pattern.P24_2).points;
  const sectors = GHT_SECTORS_1_BASED.map((sector) => {
    const upper = sector.map((k) => {
      const i = index.get(key(p24[k - 1]!.x, p24[k - 1]!.y));
      if (i === undefined) throw new Error(`${geometry.label} lacks the GHT location (${p24[k - 1]!.x}, ${p24[k - 1]!.y})`);
      return i;
    });
    const lower = upper.map((i) => {
      const p = geometry.points[i]!;
      const j = index.get(key(p.x, -p.y));
      if (j === undefined) throw new Error(`no mirror location for (${p.x}, ${p.y})`);
      return j;
    });
    return { upper, lower };
  });
  sectorCache.set(geometry, sectors);
  return sectors;
}

/** GHT point score of one location (see the module comment). */
export function ghtPointScore(
  nv: NormativeTables,
  loc: number,
  pd: number,
  level: ProbabilityLevel = probabilityLevel(nv.pdLut, loc, pd),
): number {
  if (level > 0.05) return 0;
  if (level === 0.05) return 2;
  if (level === 0.02) return 5;
  const limit = nv.pdLut[1]![loc]!; // the 1 % row
  return limit < 0 ? Math.max(10, 10 * Math.abs(pd / limit)) : 10;
}

export function ghtDifferences(
  nv: NormativeTables,
  geometry: PatternGeometry,
  pd: LocationVector,
  pdp?: ReadonlyArray<ProbabilityLevel | null>,
) {
  const sectors = ghtSectors(geometry);
  const upperScores: number[] = [],
    lowerScores: number[] = [],
    differences: number[] = [];
  for (const { upper, lower } of sectors) {
    let u = 0,
      l = 0;
    for (const i of upper) {
      const v = pd[i];
      if (v != null) u += ghtPointScore(nv, i, v, pdp?.[i] ?? undefined);
    }
    for (const i of lower) {
      const v = pd[i];
      if (v != null) l += ghtPointScore(nv, i, v, pdp?.[i] ?? undefined);
    }
    upperScores.push(u);
    lowerScores.push(l);
    differences.push(u - l);
  }
  return { upperScores, lowerScores, differences };
}

/** Limits from control fields (PD vectors and 1/visits weights), computed when the tables are built. */
export function ghtLimitsFromControls(
  nv: NormativeTables,
  geometry: PatternGeometry,
  controlPd: readonly LocationVector[],
  weights: readonly number[],
): GhtLimits {
  const diffs = controlPd.map((pd) => ghtDifferences(nv, geometry, pd).differences);
  return {
    differenceQuantiles: GHT_SECTORS_1_BASED.map((_, s) => {
      const q = weightedQuantiles(
        diffs.map((d) => d[s]!),
        weights,
        GHT_LIMIT_PROBABILITIES,
      );
      return [q[0]!, q[1]!, q[2]!, q[3]!] as const;
    }),
  };
}

function beyondLimits(differences: readonly number[], q: GhtLimits["differenceQuantiles"], lo: 0 | 1, hi: 2 | 3): boolean {
  for (let s = 0; s < differences.length; s++) {
    const d = differences[s]!;
    if (d < q[s]![lo] || d > q[s]![hi]) return true;
  }
  return false;
}

/**
 * The outcome, in Humphrey's order of precedence: outside normal limits (any difference beyond 0.5/99.5 %),
 * borderline (beyond 1.5/98.5 %), general reduction (GH below its 0.5 % limit), abnormally high sensitivity
 * (GH above its 99.5 % limit), else within normal limits. Null when the pattern has no GHT (not 24-2 or 30-2) or
 * the tables carry no limits.
 */
export function glaucomaHemifieldTest(
  nv: NormativeTables,
  geometry: PatternGeometry,
  pd: LocationVector,
  gh: number,
  /** The PD probability map, when already computed. */
  pdp?: ReadonlyArray<ProbabilityLevel | null>,
): GhtResult | null {
  if (!ghtPatterns.has(geometry.pattern) || !nv.ght) return null;
  const { upperScores, lowerScores, differences } = ghtDifferences(nv, geometry, pd, pdp);
  const q = nv.ght.differenceQuantiles;
  const ghLow = nv.globalLut[0]!.gh,
    ghHigh = nv.globalLut[nv.globalLut.length - 1]!.gh;
  const outcome: GhtOutcome = beyondLimits(differences, q, 0, 3)
    ? "outside normal limits"
    : beyondLimits(differences, q, 1, 2)
      ? "borderline"
      : gh < ghLow
        ? "general reduction of sensitivity"
        : gh > ghHigh
          ? "abnormally high sensitivity"
          : "within normal limits";
  return { outcome, upperScores, lowerScores, differences };
}
