import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { bebieNormalBand, plotLevels, resultPlots } from "../../core/plots/result-plots.ts";
import { getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { group, ofKind, textsOf } from "./helpers.ts";
import { sampleThresholds } from "./fixtures.ts";

const field = { width: 280, height: 280 };

describe("resultPlots: every plot of a result from core/analytics' analysis", () => {
  it("a 24-2 result with normals and gaze gets every field plot, the Bebie curve and the gaze chart", () => {
    const thresholds = sampleThresholds();
    const gazeTracking = { meanDistance: [1, 2, -1, 3], fixationThreshold: 5 };
    const analysis = analyseResult({ pattern: Pattern.P24_2, eye: Eye.Right, age: 60, thresholds, gazeTracking });
    const plots = resultPlots({
      result: { pattern: Pattern.P24_2, eye: Eye.Right, thresholds, gazeTracking },
      analysis,
      reference: thresholds,
      medium: "screen",
      field,
    });
    for (const [name, scene] of Object.entries(plots)) if (name !== "esterman" && name !== "screening") expect(scene, name).not.toBeNull();
    expect(plots.esterman).toBeNull();
    expect(plots.screening).toBeNull();
    // Symbols follow the analysis' TD probability levels location by location (blind spots left out).
    const blind = new Set(getPattern(Pattern.P24_2).blindSpotIndices);
    const levels = plotLevels(analysis.normative!.tdp).filter((_, i) => !blind.has(i));
    expect(ofKind(plots.totalDeviationProbability!, "symbol").map((s) => s.level)).toEqual(levels);
    // The loss plot prints the analysis' defects with the '+' rule.
    const defects = analysis.octopus!.defects.filter((d): d is number => d !== null);
    expect(textsOf(group(plots.loss!, "locations")).filter((t) => t === "+")).toHaveLength(defects.filter((d) => d < 5).length);
    expect(ofKind(group(plots.bebie!, "curve"), "polyline")[0]!.points).toHaveLength(defects.length * 2);
    expect(ofKind(group(plots.gaze!, "unmeasured"), "rect")).toHaveLength(1);
  });

  it("an Esterman result gets the Esterman plot and no field plots", () => {
    const thresholds = getPattern(Pattern.Esterman).points.map((_, i) => (i < 12 ? 0 : 10));
    const analysis = analyseResult({ pattern: Pattern.Esterman, eye: Eye.Binocular, age: 60, thresholds });
    const plots = resultPlots({ result: { pattern: Pattern.Esterman, eye: Eye.Binocular, thresholds }, analysis, medium: "print", field });
    expect(plots.esterman).not.toBeNull();
    expect(textsOf(group(plots.esterman!, "legend"))[0]).toBe("Esterman score: 90 %");
    expect(plots.octopusThresholds).toBeNull();
    expect(plots.totalDeviation).toBeNull();
    expect(plots.gaze).toBeNull();
  });

  it("analytics' high-tail levels (0.95 ... 1) are normal on the map", () => {
    expect(plotLevels([0.005, 0.05, 0.95, 1, null])).toEqual([0.005, 0.05, "normal", "normal", null]);
  });

  it("the Bebie normal band runs from better to worse along the ranks", () => {
    const tables = getNormativeDatabase(Pattern.P24_2)!;
    const band = bebieNormalBand(tables);
    expect(band.lower).toHaveLength(52);
    expect(band.upper).toHaveLength(52);
    for (let i = 1; i < 52; i++) expect(band.upper[i]).toBeGreaterThanOrEqual(band.upper[i - 1]!);
    band.lower.forEach((l, i) => expect(l).toBeLessThan(band.upper[i]!));
  });
});
