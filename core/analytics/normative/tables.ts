import type { Pattern } from "../../model/enums.ts";

/** Probability levels of the look-up tables (visualFields' `probs` without the 0 and 1 sentinels). */
export const lutProbabilities = [0.005, 0.01, 0.02, 0.05, 0.95, 0.98, 0.99, 0.995] as const;
/** A probability level: one of `lutProbabilities`, or 1 when the value is at or above the 99.5 % limit. */
export type ProbabilityLevel = (typeof lutProbabilities)[number] | 1;

export const globalIndexNames = ["msens", "ssens", "tmd", "tsd", "pmd", "psd", "gh", "vfi"] as const;
export type GlobalIndexName = (typeof globalIndexNames)[number];
/** For these, a low value is abnormal; for the others (ssens, tsd, psd) a high value is. */
export const higherIsBetter: ReadonlySet<GlobalIndexName> = new Set(["msens", "tmd", "pmd", "gh", "vfi"]);

/** The Glaucoma Hemifield Test's limits (core/analytics/ght.ts), built with the tables from the controls. */
export interface GhtLimits {
  /** Per sector: the 0.5, 1.5, 98.5 and 99.5 % quantiles of the control differences (upper - lower). */
  readonly differenceQuantiles: ReadonlyArray<readonly [number, number, number, number]>;
}

/** A location vector in pattern order; null at blind spots. */
export type LocationVector = ReadonlyArray<number | null>;

/**
 * One normative database: an age-linear normal per location plus the control distributions.
 * N(loc, age) = intercept[loc] + slope[loc] * age; TD = sensitivity - N. Location order = core/analytics/patterns.ts.
 */
export interface NormativeTables {
  /** The normativeVersion string results carry. */
  readonly version: string;
  readonly pattern: Pattern;
  /** Where the numbers come from (credit and method), shown in exports. */
  readonly source: string;
  readonly method: "smooth" | "age-linear";
  readonly nloc: number;
  readonly blindSpotIndices: readonly number[];
  readonly intercept: LocationVector;
  readonly slope: LocationVector;
  /** Per-location SDs of sensitivity, TD and PD in the controls. */
  readonly sd: { readonly vf: LocationVector; readonly td: LocationVector; readonly pd: LocationVector };
  /** General height: the ghRank-th highest TD (7 on 24-2, 10 on 10-2). */
  readonly ghRank: number;
  /** lut[i][loc] = the lutProbabilities[i] quantile of control TD (PD) at loc. */
  readonly tdLut: ReadonlyArray<LocationVector>;
  readonly pdLut: ReadonlyArray<LocationVector>;
  /**
   * Global-index look-up: row i holds, per index, the lutProbabilities[i] quantile of the controls for
   * higher-is-better indices and the (1 - lutProbabilities[i]) quantile for the others.
   */
  readonly globalLut: ReadonlyArray<Readonly<Record<GlobalIndexName, number>>>;
  /** Glaucoma Hemifield Test limits from the same controls (24-2 only; null elsewhere). */
  readonly ght: GhtLimits | null;
}
