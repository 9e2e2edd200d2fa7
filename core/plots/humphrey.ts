// Humphrey-style field plots: thresholds, and total / pattern deviation either as numbers or as probability symbols.

import { checkLength, fieldFrame, fieldScene, type FieldBox } from "./field.ts";
import { deviationLabel, thresholdLabel } from "./format.ts";
import type { LocationValues } from "./octopus.ts";
import { message, text, type Message, type ProbabilityLevel, type Scene, type SceneNode } from "./scene.ts";

export interface HumphreyThresholdsInput extends FieldBox {
  readonly thresholds: LocationValues;
}

/** Thresholds in whole dB ("<0" where not seen at the brightest stimulus). */
export function humphreyThresholdsScene(input: HumphreyThresholdsInput): Scene {
  const frame = fieldFrame(input);
  checkLength("thresholds", input.thresholds, frame.geometry);
  const marks = input.thresholds.flatMap((v, i) =>
    v === null ? [] : [text(frame.at[i]!.x, frame.at[i]!.y, thresholdLabel(v), { size: frame.sizeAt[i]!, tabular: true })],
  );
  return fieldScene("humphrey.thresholds", message("plots.humphrey.thresholds", "Threshold (dB)"), input, frame, marks);
}

export type DeviationKind = "total" | "pattern";

export interface DeviationValuesInput extends FieldBox {
  readonly kind: DeviationKind;
  /** TD or PD per location in dB. Blind-spot locations are left out whatever their value. */
  readonly values: LocationValues;
}

export interface DeviationSymbolsInput extends FieldBox {
  readonly kind: DeviationKind;
  /** Probability level per location (null = not available); blind-spot locations are left out. */
  readonly levels: ReadonlyArray<ProbabilityLevel | null>;
}

const titles: Record<DeviationKind, Record<"values" | "symbols", Message>> = {
  total: {
    values: message("plots.humphrey.totalDeviation", "Total deviation"),
    symbols: message("plots.humphrey.totalDeviationProbability", "Total deviation probability"),
  },
  pattern: {
    values: message("plots.humphrey.patternDeviation", "Pattern deviation"),
    symbols: message("plots.humphrey.patternDeviationProbability", "Pattern deviation probability"),
  },
};

/** TD or PD in whole dB at each location (HFA's numeric deviation plot). */
export function humphreyDeviationValuesScene(input: DeviationValuesInput): Scene {
  const frame = fieldFrame(input);
  checkLength(`${input.kind} deviation`, input.values, frame.geometry);
  const blind = new Set(frame.geometry.blindSpotIndices);
  const marks = input.values.flatMap((v, i) =>
    v === null || blind.has(i) ? [] : [text(frame.at[i]!.x, frame.at[i]!.y, deviationLabel(v), { size: frame.sizeAt[i]!, tabular: true })],
  );
  return fieldScene(`humphrey.${input.kind}Deviation`, titles[input.kind].values, input, frame, marks);
}

/** The probability map of TD or PD: one HFA symbol per location (see symbolShapes and totalDeviationLegend). */
export function humphreyDeviationSymbolsScene(input: DeviationSymbolsInput): Scene {
  const frame = fieldFrame(input);
  checkLength(`${input.kind} deviation levels`, input.levels, frame.geometry);
  const blind = new Set(frame.geometry.blindSpotIndices);
  const size = (i: number) => Math.max(6, Math.min(frame.localCell[i]! * 0.65, 22));
  const marks: SceneNode[] = input.levels.flatMap((level, i) =>
    level === null || blind.has(i)
      ? []
      : [{ kind: "symbol" as const, x: frame.at[i]!.x, y: frame.at[i]!.y, size: size(i), level, fill: "plot-ink" as const }],
  );
  return fieldScene(`humphrey.${input.kind}DeviationProbability`, titles[input.kind].symbols, input, frame, marks);
}
