import type { ProbabilityLevel } from "../analytics/normative/tables.ts";
import { cigtsNeighbours } from "../analytics/stages/cigts-score.ts";
import { grid24 } from "../analytics/stages/staging-grid.ts";
import type { Pattern } from "../model/enums.ts";

// The review queue's "outlier" flag: a home result against the patient's own series (issue 31 §2: "MD more than 3 dB
// from the median of the last five, or a new cluster of defects"). The server and the web do not use the triage yet.

/** The rule: MD more than 3 dB from the median of the last five. */
export const MD_OUTLIER_DB = 3;
export const MD_MEDIAN_RESULTS = 5;
/**
 * Our choice: the median needs at least 3 earlier results. Of one or two, the "median" is a single test's value or a
 * mean, and test-retest variability alone moves a field's MD by 1-2 dB: no outlier from too little data.
 */
export const MD_MEDIAN_MIN_RESULTS = 3;

export interface MdOutlier {
  readonly code: "md-from-median";
  /** MD of the new result and the median of the earlier ones, dB as the result page shows them (2 decimals). */
  readonly md: number;
  readonly median: number;
  /** md - median (negative: worse than usual). */
  readonly difference: number;
  readonly limit: number;
  /** How many earlier results the median is of (3 to 5). */
  readonly results: number;
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The MD rule on MDs in dB (the earlier ones oldest first; the last five are read). Compared in hundredths of a dB,
 * the precision the page shows: the boundary is then exact (3.00 dB from the median is not "more than 3 dB", 3.01 is),
 * never a floating-point accident. null when the difference is within 3 dB; "too-few-results" under 3 earlier MDs.
 */
export function mdOutlier(md: number, earlier: readonly number[]): MdOutlier | null | "too-few-results" {
  const last = earlier.slice(-MD_MEDIAN_RESULTS);
  if (last.length < MD_MEDIAN_MIN_RESULTS) return "too-few-results";
  const hundredths = Math.round(md * 100);
  const mid = median(last.map((v) => Math.round(v * 100))); // a whole or half hundredth: exact in floating point
  const difference = hundredths - mid;
  if (Math.abs(difference) <= MD_OUTLIER_DB * 100) return null;
  return {
    code: "md-from-median",
    md: hundredths / 100,
    median: mid / 100,
    difference: difference / 100,
    limit: MD_OUTLIER_DB,
    results: last.length,
  };
}

/**
 * Our definition of a new cluster of defects: 3 or more locations, each at p < 5 % on the pattern deviation map of the
 * new result and not at p < 5 % on the previous one, joined by neighbours. Pattern deviation, because it takes the
 * general height out: a cataract or a tired patient lowers the whole field, a new defect a part of it. Neighbours are
 * CIGTS's (Gillespie et al., IOVS 2003; core/analytics/stages): one grid step across or diagonally within a hemifield,
 * since nerve-fibre-bundle defects respect the horizontal meridian. Three locations, as GPA's events and the AGIS
 * clusters need three, so one noisy point or a pair is no cluster. Defined where those neighbours are, 24-2 and 30-2
 * (30-2 read on its 52 24-2 locations, as the stages read it).
 */
export const CLUSTER_MIN_LOCATIONS = 3;
const P_LIMIT = 0.05;

export interface NewCluster {
  readonly code: "new-cluster";
  /** The cluster's pattern indices (core/analytics/patterns order), ascending. */
  readonly locations: number[];
}

const below = (level: ProbabilityLevel | null | undefined): boolean => level !== null && level !== undefined && level <= P_LIMIT;

/** The new clusters, largest first; "pattern" where the neighbours are not defined. */
export function newClusters(
  pattern: Pattern,
  pdpNow: ReadonlyArray<ProbabilityLevel | null>,
  pdpBefore: ReadonlyArray<ProbabilityLevel | null>,
): NewCluster[] | "pattern" {
  const grid = grid24(pattern);
  const around = cigtsNeighbours(pattern);
  if (!grid || !around) return "pattern";
  const position = new Map(grid.map((g, k) => [g.index, k]));
  const fresh = grid.map((g) => below(pdpNow[g.index]) && !below(pdpBefore[g.index]));
  const seen = new Array<boolean>(grid.length).fill(false);
  const clusters: NewCluster[] = [];
  for (let k = 0; k < grid.length; k++) {
    if (!fresh[k] || seen[k]) continue;
    const members: number[] = [];
    const stack = [k];
    seen[k] = true;
    while (stack.length > 0) {
      const j = stack.pop()!;
      members.push(grid[j]!.index);
      for (const index of around[j]!) {
        const n = position.get(index)!;
        if (fresh[n] && !seen[n]) {
          seen[n] = true;
          stack.push(n);
        }
      }
    }
    if (members.length >= CLUSTER_MIN_LOCATIONS) clusters.push({ code: "new-cluster", locations: members.sort((a, b) => a - b) });
  }
  return clusters.sort((a, b) => b.locations.length - a.locations.length || a.locations[0]! - b.locations[0]!);
}
