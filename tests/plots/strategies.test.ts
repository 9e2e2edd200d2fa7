import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { ageAtTest, analyseResult } from "../../core/analytics/result-analysis.ts";
import {
  Eye,
  Pattern,
  Showtime,
  StimuliUpdate,
  Strategy,
  type Eye as EyeT,
  type Pattern as PatternT,
  type Strategy as StrategyT,
} from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { comparisonLabel, thresholdLabel } from "../../core/plots/format.ts";
import { plotLevels, resultPlots } from "../../core/plots/result-plots.ts";
import { createPerimetryTest, runToEnd } from "../../simulator/perimetry/engine.ts";
import { toMeasurementResult } from "../../simulator/perimetry/result.ts";
import { group, ofKind, textsOf } from "./helpers.ts";

// Issue #9: "every plot and index of the seed is visible for results of each strategy the simulator runs". Each
// strategy's result comes from the simulator's engine (a patient with early glaucoma, the birthdate known to the
// device), is analysed by core/analytics and drawn by core/plots; the scenes must carry that result's own content.

const birthdate = "1959-05-05";
const takenAt = "2025-06-01T10:00:00.000Z";

function run(pattern: PatternT, strategy: StrategyT, eye: EyeT, seed: string): MeasurementResult {
  const spec = {
    pattern,
    eye,
    strategy,
    stimuliUpdate: StimuliUpdate.Ms1000,
    stimuliShowtime: pattern === Pattern.Esterman ? Showtime.Ms500 : Showtime.Ms200,
  };
  const outcome = runToEnd(createPerimetryTest({ spec, profile: "early", seed, age: 66 }));
  return toMeasurementResult(outcome, spec, {
    measurementId: "m",
    patientId: "p",
    takenAt,
    deviceAlias: "Room 1",
    gazeCalibration: true,
    patientBirthdate: birthdate,
  });
}

function draw(r: MeasurementResult, reference: MeasurementResult | null) {
  const analysis = analyseResult({
    pattern: r.pattern,
    eye: r.eye,
    age: ageAtTest(birthdate, r.takenAt),
    thresholds: r.thresholds,
    normativeVersion: r.normativeVersion,
    catchTrials: r.catchTrials,
    gazeTracking: r.gazeTracking,
    normValues: r.normValues,
  });
  const plots = resultPlots({
    result: r,
    analysis,
    reference: reference?.thresholds ?? null,
    medium: "screen",
    field: { width: 240, height: 240 },
    gaze: { width: 960, height: 130 },
  });
  return { analysis, plots };
}

const fieldCases: Array<[string, PatternT, StrategyT, EyeT]> = [
  ["Normal 24-2", Pattern.P24_2, Strategy.Normal, Eye.Right],
  ["Normal G", Pattern.G, Strategy.Normal, Eye.Left],
  ["DS 24-2", Pattern.P24_2, Strategy.DS, Eye.Left],
  ["DS 30-2", Pattern.P30_2, Strategy.DS, Eye.Right],
  ["SORS 24-2", Pattern.P24_2, Strategy.SORS, Eye.Left],
  ["SORS screening G", Pattern.G, Strategy.SORS_screening, Eye.Right],
];

describe("every plot and index for each strategy's result", () => {
  for (const [label, pattern, strategy, eye] of fieldCases)
    it(`${label}: the field plots show the result's own values; the normative ones exist exactly where a database does`, () => {
      const r = run(pattern, strategy, eye, `plots/${label}`);
      const earlier = run(pattern, strategy, eye, `plots/${label}/earlier`);
      const { analysis, plots } = draw(r, earlier);
      const geometry = getPattern(pattern);
      const blind = new Set(geometry.blindSpotIndices);

      expect(plots.esterman).toBeNull();
      expect(plots.screening).toBeNull();
      expect(textsOf(group(plots.octopusThresholds!, "locations"))).toEqual(r.thresholds.map(thresholdLabel));
      expect(textsOf(group(plots.numerical!, "locations"))).toEqual(r.thresholds.map(thresholdLabel));
      expect(textsOf(group(plots.humphreyThresholds!, "locations"))).toHaveLength(r.thresholds.length);
      expect(ofKind(plots.grayscale!, "rect").length).toBeGreaterThan(geometry.points.length);
      // Octopus-style analysis from the result's normals: the comparison prints each defect ('+' below 5 dB).
      const defects = analysis.octopus!.defects.filter((d): d is number => d !== null);
      expect(textsOf(group(plots.loss!, "locations"))).toEqual(defects.map(comparisonLabel));
      expect(ofKind(group(plots.bebie!, "curve"), "polyline")[0]!.points).toHaveLength(defects.length * 2);
      expect(textsOf(group(plots.difference!, "locations"))).toHaveLength(r.thresholds.length);
      // Gaze: one bar or could-not-measure band per sample.
      const samples = r.gazeTracking!.meanDistance;
      expect(ofKind(group(plots.gaze!, "bars"), "rect").length + ofKind(group(plots.gaze!, "unmeasured"), "rect").length).toBe(
        samples.length,
      );

      // Every threshold pattern the simulator runs has a normative database now (30-2 and G: the full-field model).
      const normative = ([Pattern.P24_2, Pattern.P30_2, Pattern.G, Pattern.P10_2] as PatternT[]).includes(pattern);
      expect(analysis.normative !== null).toBe(normative);
      for (const p of [plots.totalDeviation, plots.patternDeviation, plots.totalDeviationProbability, plots.patternDeviationProbability])
        expect(p !== null).toBe(normative);
      if (normative) {
        const levels = plotLevels(analysis.normative!.tdp).filter((_, i) => !blind.has(i));
        expect(ofKind(plots.totalDeviationProbability!, "symbol").map((s) => s.level)).toEqual(levels);
        expect(ofKind(plots.patternDeviationProbability!, "symbol")).toHaveLength(levels.length);
      }
      // The indices the page prints (accounts seed §2): MS, MD, sLV always; PSD and VFI with a database; the GHT where
      // it is defined (24-2, 30-2: its sectors' locations), never on G.
      const d = analysis.display;
      expect([d.meanSensitivity, d.meanDefect, d.slv].every((v) => v !== null)).toBe(true);
      expect([d.psd, d.vfi].every((v) => v !== null)).toBe(normative);
      expect((analysis.normative?.ght ?? null) !== null).toBe(normative && pattern !== Pattern.G);
      // What the device stored is what the page prints.
      expect([r.meanDefect, r.squareRootLossVariance, r.vfi]).toEqual([d.meanDefect, d.slv, d.vfi]);
    });

  for (const [label, pattern, strategy, eye] of [
    ["Supra 24-2", Pattern.P24_2, Strategy.Supra, Eye.Right],
    ["1LT C40", Pattern.C40, Strategy.OneLevel, Eye.Left],
  ] as const)
    it(`${label}: a screening is drawn seen / not seen with its share seen; no threshold, defect or deviation plot misreads its levels`, () => {
      const r = run(pattern, strategy, eye, `plots/${label}`);
      const earlier = run(pattern, strategy, eye, `plots/${label}/earlier`);
      const { plots } = draw(r, earlier);
      const seen = r.thresholds.filter((t) => t > 0).length;
      const circles = ofKind(group(plots.screening!, "locations"), "circle");
      const squares = ofKind(group(plots.screening!, "locations"), "rect");
      expect([circles.length, squares.length]).toEqual([seen, r.thresholds.length - seen]);
      expect(textsOf(group(plots.screening!, "legend")).slice(0, 2)).toEqual([
        `Seen: ${Math.round((100 * seen) / r.thresholds.length)} %`,
        `${seen} of ${r.thresholds.length} seen`,
      ]);
      for (const name of [
        "esterman",
        "octopusThresholds",
        "grayscale",
        "numerical",
        "loss",
        "difference",
        "humphreyThresholds",
        "totalDeviation",
        "totalDeviationProbability",
        "patternDeviation",
        "patternDeviationProbability",
        "bebie",
      ] as const)
        expect(plots[name], name).toBeNull();
      expect(plots.gaze).not.toBeNull();
      // The device stores no mean defect for it either.
      expect([r.meanDefect, r.squareRootLossVariance, r.vfi]).toEqual([null, null, null]);
    });

  it("1LT Esterman: the Esterman plot with its score and seen count, the gaze chart, and no field plots", () => {
    const r = run(Pattern.Esterman, Strategy.OneLevel, Eye.Binocular, "plots/esterman");
    const { analysis, plots } = draw(r, null);
    const seen = r.thresholds.filter((t) => t > 0).length;
    expect(r.estermanScore).toBe(analysis.estermanScore);
    expect(textsOf(group(plots.esterman!, "legend")).slice(0, 2)).toEqual([
      `Esterman score: ${analysis.estermanScore} %`,
      `${seen} of 120 seen`,
    ]);
    for (const name of [
      "screening",
      "octopusThresholds",
      "grayscale",
      "numerical",
      "loss",
      "difference",
      "humphreyThresholds",
      "totalDeviation",
      "bebie",
    ] as const)
      expect(plots[name], name).toBeNull();
    expect(plots.gaze).not.toBeNull();
    expect(r.meanDefect).toBeNull();
  });
});
