// Thin adapter from core/analytics' result analysis to the scenes of a result page: one call gives every plot the
// seeds list for a result, so the web page, the print layout and the CLI report draw the same set.

import { lutProbabilities, type NormativeTables } from "../analytics/normative/tables.ts";
import { getNormativeDatabase } from "../analytics/normative/registry.ts";
import type { ResultAnalysis } from "../analytics/result-analysis.ts";
import { Pattern, type Eye, type Strategy } from "../model/enums.ts";
import { bebieScene } from "./bebie.ts";
import { estermanScene } from "./esterman.ts";
import { gazeScene } from "./gaze.ts";
import { grayscaleScene } from "./grayscale.ts";
import { humphreyDeviationSymbolsScene, humphreyDeviationValuesScene, humphreyThresholdsScene } from "./humphrey.ts";
import { octopusDifferenceScene, octopusLossScene, octopusNumericalScene, octopusThresholdsScene, type LocationValues } from "./octopus.ts";
import type { Medium, ProbabilityLevel, Scene } from "./scene.ts";
import { isScreening, screeningScene } from "./screening.ts";
import { toProbabilityLevel } from "./symbols.ts";

export interface ResultPlotsInput {
  /** The stored result's own fields the scenes need. */
  readonly result: {
    readonly pattern: Pattern;
    readonly eye: Eye;
    readonly thresholds: LocationValues;
    readonly normativeVersion?: string | null;
    /** Supra-threshold and one-level results are screenings (screening.ts): drawn seen / not seen, not as thresholds. */
    readonly strategy?: Strategy | null;
    readonly gazeTracking?: { readonly meanDistance: readonly number[]; readonly fixationThreshold?: number | null } | null;
  };
  readonly analysis: ResultAnalysis;
  /** Thresholds of the result to compare with (difference plot), same pattern and eye. */
  readonly reference?: LocationValues | null;
  readonly medium: Medium;
  /** Size of each field plot. */
  readonly field: { readonly width: number; readonly height: number };
  /** Size of the Bebie curve (default the field size). */
  readonly bebie?: { readonly width: number; readonly height: number };
  /** Size of the gaze chart (default the field width times 2, 90 high). */
  readonly gaze?: { readonly width: number; readonly height: number };
  readonly showTitles?: boolean;
}

/** Every plot of one result; null where the result has no data for it (no normals, no gaze, not Esterman, ...). */
export interface ResultPlots {
  readonly octopusThresholds: Scene | null;
  readonly grayscale: Scene | null;
  readonly numerical: Scene | null;
  readonly loss: Scene | null;
  readonly difference: Scene | null;
  readonly humphreyThresholds: Scene | null;
  readonly totalDeviation: Scene | null;
  readonly totalDeviationProbability: Scene | null;
  readonly patternDeviation: Scene | null;
  readonly patternDeviationProbability: Scene | null;
  readonly bebie: Scene | null;
  readonly esterman: Scene | null;
  /** A monocular screening result's seen / not-seen plot; its threshold and deviation plots are then all null. */
  readonly screening: Scene | null;
  readonly gaze: Scene | null;
}

/** Analytics' probability levels (0.005 ... 0.05 low, 0.95 ... 1 high) as plot levels: high tails are "normal". */
export function plotLevels(levels: ReadonlyArray<number | null>): Array<ProbabilityLevel | null> {
  return levels.map((l) => (l === null ? null : toProbabilityLevel(l)));
}

/**
 * An approximate normal band for the Bebie curve from a normative database: the per-location 95th and 5th percentiles
 * of control defects (defect = -TD), each sorted by rank. Sorting pointwise quantiles is not the quantile of the
 * controls' sorted curves (which needs the control fields themselves), so the band is a guide, slightly wider than
 * Octopus' published band at the ends.
 */
export function bebieNormalBand(tables: NormativeTables): { lower: number[]; upper: number[] } {
  const p05 = lutProbabilities.indexOf(0.05);
  const p95 = lutProbabilities.indexOf(0.95);
  const sorted = (row: ReadonlyArray<number | null> | undefined) =>
    (row ?? [])
      .filter((v): v is number => v !== null)
      .map((td) => -td)
      .sort((a, b) => a - b);
  return { lower: sorted(tables.tdLut[p95]), upper: sorted(tables.tdLut[p05]) };
}

export function resultPlots(input: ResultPlotsInput): ResultPlots {
  const { result, analysis, medium } = input;
  const box = { pattern: result.pattern, eye: result.eye, ...input.field, ...(input.showTitles === false ? { showTitle: false } : {}) };
  const esterman = result.pattern === Pattern.Esterman;
  const screening = !esterman && isScreening(result.strategy);
  const normative = analysis.normative;
  const defects = analysis.octopus?.defects ?? null;
  const tables = esterman ? null : getNormativeDatabase(result.pattern, result.normativeVersion);
  const gaze = result.gazeTracking && result.gazeTracking.meanDistance.length > 0 ? result.gazeTracking : null;
  // Esterman and screening results are seen / not seen: no threshold, defect or deviation plot reads them right.
  const seenOnly = esterman || screening;
  const field = (make: () => Scene) => (seenOnly ? null : make());
  return {
    octopusThresholds: field(() => octopusThresholdsScene({ ...box, thresholds: result.thresholds })),
    grayscale: field(() => grayscaleScene({ ...box, thresholds: result.thresholds })),
    numerical: field(() => octopusNumericalScene({ ...box, thresholds: result.thresholds })),
    loss: defects && !seenOnly ? octopusLossScene({ ...box, defects }) : null,
    difference:
      input.reference && !seenOnly ? octopusDifferenceScene({ ...box, current: result.thresholds, reference: input.reference }) : null,
    humphreyThresholds: field(() => humphreyThresholdsScene({ ...box, thresholds: result.thresholds })),
    totalDeviation: normative && !seenOnly ? humphreyDeviationValuesScene({ ...box, kind: "total", values: normative.td }) : null,
    totalDeviationProbability:
      normative && !seenOnly ? humphreyDeviationSymbolsScene({ ...box, kind: "total", levels: plotLevels(normative.tdp) }) : null,
    patternDeviation: normative && !seenOnly ? humphreyDeviationValuesScene({ ...box, kind: "pattern", values: normative.pd }) : null,
    patternDeviationProbability:
      normative && !seenOnly ? humphreyDeviationSymbolsScene({ ...box, kind: "pattern", levels: plotLevels(normative.pdp) }) : null,
    bebie:
      analysis.octopus && !seenOnly
        ? bebieScene({
            defects: analysis.octopus.defects,
            ...(tables ? { normalBand: bebieNormalBand(tables) } : {}),
            ...(input.bebie ?? input.field),
            ...(input.showTitles === false ? { showTitle: false } : {}),
          })
        : null,
    screening: screening
      ? screeningScene({
          pattern: result.pattern,
          eye: result.eye,
          values: result.thresholds,
          ...input.field,
          ...(input.showTitles === false ? { showTitle: false } : {}),
        })
      : null,
    esterman: esterman
      ? estermanScene({
          thresholds: result.thresholds,
          score: analysis.estermanScore,
          ...input.field,
          ...(input.showTitles === false ? { showTitle: false } : {}),
        })
      : null,
    gaze: gaze
      ? gazeScene({
          samples: gaze.meanDistance,
          fixationThreshold: gaze.fixationThreshold ?? null,
          medium,
          ...(input.gaze ?? { width: input.field.width * 2, height: 90 }),
          ...(input.showTitles === false ? { showTitle: false } : {}),
        })
      : null,
  };
}
