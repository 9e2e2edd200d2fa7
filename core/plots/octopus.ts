// Octopus-style (900) field plots: thresholds, numerical values, loss/comparison and difference.

import { thresholdBand, thresholdBands } from "./bands.ts";
import { checkLength, fieldFrame, fieldScene, type FieldBox } from "./field.ts";
import { comparisonLabel, signedLabel, thresholdLabel } from "./format.ts";
import { message, text, type Scene, type SceneNode } from "./scene.ts";

/** One value per pattern location (right-eye index order); null = not tested / not available. */
export type LocationValues = ReadonlyArray<number | null>;

export interface ThresholdsInput extends FieldBox {
  readonly thresholds: LocationValues;
}

/** Thresholds in dB at their locations, each on a cell of its threshold colour band (see thresholdColourLegend). */
export function octopusThresholdsScene(input: ThresholdsInput): Scene {
  const frame = fieldFrame(input);
  checkLength("thresholds", input.thresholds, frame.geometry);
  const marks: SceneNode[] = [];
  input.thresholds.forEach((v, i) => {
    if (v === null) return;
    const p = frame.at[i]!;
    const side = frame.localCell[i]! * 0.9;
    const band = thresholdBands[thresholdBand(v)]!;
    marks.push(
      { kind: "rect", x: p.x - side / 2, y: p.y - side / 2, width: side, height: side, fill: band.colour },
      text(p.x, p.y, thresholdLabel(v), { size: frame.sizeAt[i]!, tabular: true, fill: band.ink }),
    );
  });
  return fieldScene("octopus.thresholds", message("plots.octopus.thresholds", "Thresholds (dB)"), input, frame, marks);
}

/** Plain numbers at the locations: the printable, colourless form of the thresholds. */
export function octopusNumericalScene(input: ThresholdsInput): Scene {
  const frame = fieldFrame(input);
  checkLength("thresholds", input.thresholds, frame.geometry);
  const marks = input.thresholds.flatMap((v, i) =>
    v === null ? [] : [text(frame.at[i]!.x, frame.at[i]!.y, thresholdLabel(v), { size: frame.sizeAt[i]!, tabular: true })],
  );
  return fieldScene("octopus.numerical", message("plots.octopus.numerical", "Values (dB)"), input, frame, marks);
}

export interface LossInput extends FieldBox {
  /** Defect per location, normal - measured in dB (positive = loss). */
  readonly defects: LocationValues;
}

/** Loss/comparison: the defect at each location, "+" where it is below 5 dB (accounts seed §9). */
export function octopusLossScene(input: LossInput): Scene {
  const frame = fieldFrame(input);
  checkLength("defects", input.defects, frame.geometry);
  const marks = input.defects.flatMap((d, i) => {
    if (d === null) return [];
    const label = comparisonLabel(d);
    return [
      text(frame.at[i]!.x, frame.at[i]!.y, label, { size: frame.sizeAt[i]!, tabular: true, weight: label === "+" ? "normal" : "bold" }),
    ];
  });
  return fieldScene("octopus.loss", message("plots.octopus.loss", "Comparison (defects, dB)"), input, frame, marks);
}

export interface DifferenceInput extends FieldBox {
  /** Thresholds of the result shown. */
  readonly current: LocationValues;
  /** Thresholds of the result compared with (e.g. the baseline). */
  readonly reference: LocationValues;
}

/** Per-location difference current - reference in dB (negative = worse than the reference). */
export function thresholdDifference(current: LocationValues, reference: LocationValues): Array<number | null> {
  return current.map((c, i) => {
    const r = reference[i];
    return c === null || r === null || r === undefined ? null : c - r;
  });
}

/** Difference between two results of the same pattern and eye, signed whole dB at each location. */
export function octopusDifferenceScene(input: DifferenceInput): Scene {
  const frame = fieldFrame(input, 2.15); // "+12" is 2.11 em
  checkLength("current thresholds", input.current, frame.geometry);
  checkLength("reference thresholds", input.reference, frame.geometry);
  const marks = thresholdDifference(input.current, input.reference).flatMap((d, i) =>
    d === null
      ? []
      : [
          text(frame.at[i]!.x, frame.at[i]!.y, signedLabel(d), {
            size: frame.sizeAt[i]!,
            tabular: true,
            weight: Math.round(d) < 0 ? "bold" : "normal",
          }),
        ],
  );
  return fieldScene("octopus.difference", message("plots.octopus.difference", "Difference (dB)"), input, frame, marks);
}
