import type { Pattern } from "../../../model/enums.ts";
import { octopusClusters, type OctopusClusterId } from "../../octopus-clusters.ts";
import { linearRegression } from "../linear-regression.ts";
import { MIN_SLOPE_RESULTS, MIN_SLOPE_SPAN_DAYS } from "../md-slope.ts";
import { type MethodOutcome, notApplicable, type Verdict } from "./verdict.ts";

/**
 * Octopus / EyeSuite cluster trend analysis (Haag-Streit EyeSuite; Naghizadeh & Holló, "Detection of early glaucomatous
 * progression with Octopus cluster trend analysis", J Glaucoma 2014): the mean defect of each of the ten nerve-fibre-
 * bundle clusters (`octopus-clusters.ts`, whose membership is our choice) regressed on time; "Progression was defined
 * with significant worsening in any of the 10 Octopus clusters" (Naghizadeh & Holló). Haag-Streit: "Red downward
 * arrows show significant cluster change at the two significance levels p < 5% (unfilled red arrow) and p < 1% (filled
 * red arrow). The rate of change per cluster in dB per years is shown inside each cluster."
 *
 * Sign: Octopus' defect is normal minus measured (positive = loss); this code base's TD is measured minus normal, so a
 * cluster's value here is its mean TD and a worsening cluster has a negative slope.
 *
 * OUR CHOICES where the sources are silent:
 * - the test is one-sided per direction, with this code base's regression (visualFields' glr: p = P(T_{n-2} <= t));
 *   worsening at p < 5 %, EyeSuite's lower arrow; improving when a cluster's upward slope has p < 5 % and none worsens;
 * - EyeSuite's minimum series is not published: we ask what the MD slope asks, at least 3 results spanning at least
 *   182 days (`MIN_SLOPE_RESULTS`, `MIN_SLOPE_SPAN_DAYS`);
 * - a cluster location missing on any visit makes the method not applicable (no cluster mean over fewer locations).
 */
export const CLUSTER_SIGNIFICANCE = 0.05;
export const CLUSTER_STRONG_SIGNIFICANCE = 0.01;
const DAYS_PER_YEAR = 365.25;

/** EyeSuite's arrows: filled at p < 1 %, unfilled at p < 5 %. */
export type ClusterSignificance = "p<1%" | "p<5%";

export interface ClusterSlope {
  readonly cluster: OctopusClusterId;
  /** Pattern indices averaged (right-eye order). */
  readonly locations: readonly number[];
  /** dB per year of the cluster's mean TD; negative = worsening. */
  readonly slope: number;
  /** The fitted mean TD at the first visit (dB). */
  readonly intercept: number;
  /** One-sided p of a slope this low or lower (small = worsening). */
  readonly pWorsening: number;
  /** One-sided p of a slope this high or higher (small = improving). */
  readonly pImproving: number;
  /** This cluster's own reading at CLUSTER_SIGNIFICANCE. */
  readonly change: Verdict;
  /** EyeSuite's arrow for a worsening cluster (null when it is not significant). */
  readonly worseningLevel: ClusterSignificance | null;
}

export interface ClusterTrendDetail {
  /** The ten clusters, superior then inferior, central to temporal. */
  readonly clusters: readonly ClusterSlope[];
  /** How many clusters worsen significantly. */
  readonly worseningClusters: number;
  readonly improvingClusters: number;
}

const levelOf = (p: number): ClusterSignificance | null =>
  p < CLUSTER_STRONG_SIGNIFICANCE ? "p<1%" : p < CLUSTER_SIGNIFICANCE ? "p<5%" : null;

/**
 * The cluster trend of one eye's series on one pattern.
 * @param years years since the first visit, ascending (`yearsSinceFirst`)
 * @param td total deviation per visit, in pattern order (null = not measured or no normal)
 */
export function clusterTrend(
  pattern: Pattern,
  years: readonly number[],
  td: ReadonlyArray<ReadonlyArray<number | null>>,
): MethodOutcome<ClusterTrendDetail> {
  if (years.length !== td.length) throw new Error(`clusterTrend: ${years.length} dates for ${td.length} visits`);
  const clusters = octopusClusters(pattern);
  if (clusters === null) return notApplicable("cluster-trend", "pattern");
  if (td.length < MIN_SLOPE_RESULTS) return notApplicable("cluster-trend", "too-few-visits");
  const span = (Math.max(...years) - Math.min(...years)) * DAYS_PER_YEAR;
  if (!(span >= MIN_SLOPE_SPAN_DAYS)) return notApplicable("cluster-trend", "too-short-follow-up");
  const means: number[][] = [];
  for (const cluster of clusters) {
    const perVisit: number[] = [];
    for (const visit of td) {
      let sum = 0;
      for (const i of cluster.locations) {
        const v = visit[i];
        if (v === null || v === undefined || !Number.isFinite(v)) return notApplicable("cluster-trend", "missing-locations");
        sum += v;
      }
      perVisit.push(sum / cluster.locations.length);
    }
    means.push(perVisit);
  }
  const slopes = clusters.map((cluster, k): ClusterSlope => {
    const fit = linearRegression(years, means[k]!);
    const pWorsening = fit.p,
      pImproving = 1 - fit.p;
    const change: Verdict = pWorsening < CLUSTER_SIGNIFICANCE ? "worsening" : pImproving < CLUSTER_SIGNIFICANCE ? "improving" : "stable";
    return {
      cluster: cluster.id,
      locations: cluster.locations,
      slope: fit.slope,
      intercept: fit.intercept,
      pWorsening,
      pImproving,
      change,
      worseningLevel: levelOf(pWorsening),
    };
  });
  const worseningClusters = slopes.filter((s) => s.change === "worsening").length;
  const improvingClusters = slopes.filter((s) => s.change === "improving").length;
  const verdict: Verdict = worseningClusters > 0 ? "worsening" : improvingClusters > 0 ? "improving" : "stable";
  return {
    method: "cluster-trend",
    applicable: true,
    verdict,
    detail: { clusters: slopes, worseningClusters, improvingClusters },
  };
}
