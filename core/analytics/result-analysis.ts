import { Pattern, type Eye, type Strategy } from "../model/enums.ts";
import { estermanScore } from "./esterman.ts";
import { gazeSummary, type GazeSummary } from "./gaze.ts";
import { glaucomaHemifieldTest, type GhtResult } from "./ght.ts";
import { fieldDeviations, nullWhereNaN } from "./field-deviations.ts";
import { globalLevels, humphreyMdPsd, type GlobalIndices } from "./global-indices.ts";
import { getNormativeDatabase, effectiveNormativeVersion, normativeDatabaseName } from "./normative/registry.ts";
import type { GlobalIndexName, LocationVector, NormativeTables, ProbabilityLevel } from "./normative/tables.ts";
import { octopusIndices, meanSensitivityForDisplay, roundTo, type OctopusIndices } from "./octopus.ts";
import { getPattern, type PatternGeometry } from "./patterns.ts";
import { normalSensitivity } from "./pointwise.ts";
import { reliability, type CatchTrials, type Reliability } from "./reliability.ts";
import { isScreening } from "./seen.ts";
import { lazyFieldStages, type FieldStages } from "./stages/index.ts";

/** What the analysis needs from a stored result (accounts seed §3 "Result"). */
export interface ResultInput {
  readonly pattern: Pattern;
  readonly eye: Eye;
  /** Age in years on the test day (see `ageAtTest`). */
  readonly age: number;
  /** Sensitivities in dB, in the pattern's index order (core/analytics/patterns.ts); null = not tested. */
  readonly thresholds: ReadonlyArray<number | null>;
  /** The result's normativeVersion; missing on older results (the default version applies). */
  readonly normativeVersion?: string | null;
  readonly catchTrials?: CatchTrials | null;
  readonly gazeTracking?: { readonly meanDistance: readonly number[]; readonly fixationThreshold?: number | null } | null;
  /** Normal values the device sent, used for the Octopus defects when we have no normative database. */
  readonly normValues?: ReadonlyArray<number | null> | null;
  /** The strategy; a screening's values are levels seen, which the stages do not read. */
  readonly strategy?: Strategy | null;
}

/** The statistical part, present only when a normative database exists for the pattern and version. */
export interface NormativeAnalysis extends DeviationIndices {
  readonly normativeVersion: string;
  /** The database by name and version (`normativeDatabaseName`), and where its numbers come from: for screens and exports. */
  readonly database: string;
  readonly source: string;
  readonly globalLevels: Record<GlobalIndexName, ProbabilityLevel>;
  /** Humphrey's classic weighting, for comparison and exports. */
  readonly humphrey: { readonly md: number; readonly psd: number };
  readonly ght: GhtResult | null;
}

export interface ResultAnalysis {
  readonly pattern: Pattern;
  readonly eye: Eye;
  /** null = "no normative database" (baseline not allowed, accounts seed §4). */
  readonly normative: NormativeAnalysis | null;
  /** Octopus-style indices from our normals, or from the device's normValues; null when neither exists. */
  readonly octopus: OctopusIndices | null;
  readonly reliability: Reliability;
  readonly gaze: GazeSummary | null;
  /** Esterman pattern only. */
  readonly estermanScore: number | null;
  /** Glaucoma stages (HPA, GSS 2, AGIS, CIGTS) or why each does not apply (core/analytics/stages; worked out on first read). */
  readonly stages: FieldStages;
  /** Values as the screens print them (accounts seed §9); per-location defect labels come from `defectLabel`. */
  readonly display: ResultDisplay;
}

export interface ResultDisplay {
  /** "Display threshold offset is the 7th highest value" (accounts seed §9): the general height, 2 decimals. */
  readonly thresholdOffset: number | null;
  /** "Mean sensitivity below 0 shows 0", 2 decimals. */
  readonly meanSensitivity: number | null;
  readonly meanDefect: number | null;
  readonly slv: number | null;
  /** "VFI rounded integer in %". */
  readonly vfi: number | null;
  readonly md: number | null;
  readonly psd: number | null;
}

/** Completed years between two ISO dates (the control data's ages are whole years). */
export function ageAtTest(birthdate: string, takenAt: string): number {
  const b = new Date(birthdate),
    t = new Date(takenAt);
  let age = t.getUTCFullYear() - b.getUTCFullYear();
  if (t.getUTCMonth() < b.getUTCMonth() || (t.getUTCMonth() === b.getUTCMonth() && t.getUTCDate() < b.getUTCDate())) age--;
  return age;
}

/** Full analysis of one result. Pure: the same input gives the same output. */
export function analyseResult(input: ResultInput): ResultAnalysis {
  const geometry = getPattern(input.pattern);
  if (input.thresholds.length !== geometry.points.length)
    throw new Error(`thresholds: pattern ${geometry.label} has ${geometry.points.length} locations, got ${input.thresholds.length}`);
  const nv = geometry.binocular ? null : getNormativeDatabase(input.pattern, input.normativeVersion);
  const { sens, complete } = withoutBlindSpots(geometry, input.thresholds);

  let normative: NormativeAnalysis | null = null;
  if (nv && complete) {
    const deviation = deviationIndices(nv, geometry, input.thresholds, input.age);
    const { td, pd, gh, pdp, global } = deviation;
    normative = {
      normativeVersion: effectiveNormativeVersion(input.normativeVersion),
      database: normativeDatabaseName(input.pattern, input.normativeVersion)!,
      source: nv.source,
      ...deviation,
      globalLevels: globalLevels(nv, global),
      humphrey: humphreyMdPsd(nv, td),
      ght: glaucomaHemifieldTest(nv, geometry, pd, gh, pdp),
    };
  }
  const blind = geometry.blindSpotIndices;
  const normals = normative?.normal ?? input.normValues?.map((v, i) => (blind.includes(i) ? null : v)) ?? null;
  const octopus = normals && !geometry.binocular ? octopusIndices(normals, sens) : null;
  const gaze = input.gazeTracking ? gazeSummary(input.gazeTracking.meanDistance, input.gazeTracking.fixationThreshold) : null;
  return {
    pattern: input.pattern,
    eye: input.eye,
    normative,
    octopus,
    reliability: reliability(input.catchTrials),
    gaze,
    estermanScore: input.pattern === Pattern.Esterman ? estermanScore(input.thresholds) : null,
    stages: lazyFieldStages({
      pattern: input.pattern,
      screening: isScreening(input.strategy),
      thresholds: input.thresholds,
      deviations: normative,
    }),
    display: {
      thresholdOffset: r2(normative?.gh),
      meanSensitivity: r2(octopus ? meanSensitivityForDisplay(octopus.ms) : meanOf(sens)),
      meanDefect: r2(octopus?.md),
      slv: r2(octopus?.slv),
      vfi: normative ? Math.round(normative.global.vfi) : null,
      md: r2(normative?.global.tmd),
      psd: r2(normative?.global.psd),
    },
  };
}

/** The thresholds with null at the blind spots, and whether every other location was tested. */
export function withoutBlindSpots(
  geometry: PatternGeometry,
  thresholds: ReadonlyArray<number | null>,
): { sens: Array<number | null>; complete: boolean } {
  // A copy with the blind spots nulled, rather than includes() at every location: that call was most of the cost.
  const sens: Array<number | null> = thresholds.slice();
  const blind = geometry.blindSpotIndices;
  for (const i of blind) if (i < sens.length) sens[i] = null;
  let complete = true;
  for (let i = 0; i < thresholds.length; i++) if (thresholds[i] === null && !blind.includes(i)) complete = false;
  return { sens, complete };
}

/** The pointwise deviations, their probability maps and the global indices of a complete field. */
export interface DeviationIndices {
  readonly normal: Array<number | null>;
  readonly td: Array<number | null>;
  readonly tdp: Array<ProbabilityLevel | null>;
  readonly pd: Array<number | null>;
  readonly pdp: Array<ProbabilityLevel | null>;
  /** General height = "display threshold offset is the 7th highest value" (24-2). */
  readonly gh: number;
  /** visualFields global indices (the screens show these: tmd as MD, psd as PSD). */
  readonly global: GlobalIndices;
}

/**
 * The part of the analysis against the normative tables that `analyse` (analyse-csv.ts) prints too: one code path, so a
 * CSV read back gives the result page's numbers (fieldDeviations computes them). `normal` (the result's normals, for the
 * screens) may pass normalSensitivity(nv, age) already computed.
 */
export function deviationIndices(
  nv: NormativeTables,
  geometry: PatternGeometry,
  thresholds: ReadonlyArray<number | null>,
  age: number,
  normal: Array<number | null> = normalSensitivity(nv, age),
): DeviationIndices {
  const d = fieldDeviations(nv, geometry, thresholds, age);
  return {
    normal,
    td: nullWhereNaN(d.td),
    tdp: nullWhereNaN<ProbabilityLevel>(d.tdp),
    pd: nullWhereNaN(d.pd),
    pdp: nullWhereNaN<ProbabilityLevel>(d.pdp),
    gh: d.gh,
    global: d.global,
  };
}

/** 2 decimals for display; null for missing values. Module level: no closure per analysed result. */
function r2(v: number | undefined | null): number | null {
  return v === undefined || v === null || Number.isNaN(v) ? null : roundTo(v, 2);
}

function meanOf(v: LocationVector): number | null {
  const xs = v.filter((x): x is number => x !== null);
  if (!xs.length) return null;
  return meanSensitivityForDisplay(xs.reduce((a, b) => a + b, 0) / xs.length);
}
