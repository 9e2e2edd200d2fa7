import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { degreeLabel } from "../../core/plots/axes.ts";
import { fieldFrame } from "../../core/plots/field.ts";
import { comparisonLabel, thresholdLabel } from "../../core/plots/format.ts";
import { humphreyDeviationSymbolsScene, humphreyDeviationValuesScene, humphreyThresholdsScene } from "../../core/plots/humphrey.ts";
import {
  octopusDifferenceScene,
  octopusLossScene,
  octopusNumericalScene,
  octopusThresholdsScene,
  thresholdDifference,
} from "../../core/plots/octopus.ts";
import { group, ofKind, textsOf } from "./helpers.ts";
import { sampleDefects, sampleThresholds } from "./fixtures.ts";

const box = { pattern: Pattern.P24_2, eye: Eye.Right, width: 300, height: 300 } as const;
const counts: Array<[Pattern, number]> = [
  [Pattern.P24_2, 54],
  [Pattern.P30_2, 76],
  [Pattern.P10_2, 68],
  [Pattern.G, 59],
  [Pattern.S28, 28],
  [Pattern.C40, 40],
];

describe("field plots place one value per pattern location", () => {
  it.each(counts)("pattern %s: %i numbers in the numerical plot", (pattern, n) => {
    const thresholds = getPattern(pattern).points.map((_, i) => 20 + (i % 10));
    const scene = octopusNumericalScene({ ...box, pattern, thresholds });
    expect(textsOf(group(scene, "locations"))).toHaveLength(n);
  });

  it("Octopus thresholds: a colour cell and a number per location, none for untested (null)", () => {
    const t: Array<number | null> = sampleThresholds();
    t[3] = null;
    const scene = octopusThresholdsScene({ ...box, thresholds: t });
    const locations = group(scene, "locations");
    expect(ofKind(locations.children, "rect")).toHaveLength(53);
    expect(textsOf(locations)).toHaveLength(53);
  });

  it("a value array of the wrong length is refused, naming the field", () => {
    expect(() => octopusNumericalScene({ ...box, thresholds: [1, 2, 3] })).toThrow(/thresholds: 3 values for 24-2, which has 54/);
  });

  it("a left eye is drawn mirrored: the blind spot lies left of fixation", () => {
    const blind = getPattern(Pattern.P24_2).blindSpotIndices[0]!;
    const right = fieldFrame(box);
    const left = fieldFrame({ ...box, eye: Eye.Left });
    expect(right.at[blind]!.x).toBeGreaterThan(right.centre.x);
    expect(left.at[blind]!.x).toBeLessThan(left.centre.x);
  });

  it("marks never overlap their neighbours (G's crowded centre included)", () => {
    for (const [pattern] of counts) {
      const f = fieldFrame({ ...box, pattern });
      f.at.forEach((p, i) =>
        f.at.forEach((q, j) => {
          if (i === j) return;
          const room = Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y));
          expect(room).toBeGreaterThanOrEqual((f.localCell[i]! + f.localCell[j]!) / 2 - 1e-9);
        }),
      );
    }
  });
});

describe("thresholds and comparison labels", () => {
  it("a negative threshold prints <0, others whole dB", () => {
    expect(thresholdLabel(-1)).toBe("<0");
    expect(thresholdLabel(0)).toBe("0");
    expect(thresholdLabel(27.6)).toBe("28");
  });

  // Accounts seed §9: "Defect below 5 shows a plus sign."
  it("Defect below 5 shows a plus sign", () => {
    fc.assert(
      fc.property(fc.double({ min: -40, max: 40, noNaN: true }), (d) => {
        expect(comparisonLabel(d) === "+").toBe(d < 5);
      }),
      { numRuns: 200 },
    );
    expect(comparisonLabel(4.99)).toBe("+");
    expect(comparisonLabel(5)).toBe("5");
    expect(comparisonLabel(12.4)).toBe("12");
  });

  it("the loss/comparison plot prints '+' exactly where the defect is below 5", () => {
    const defects = sampleDefects();
    const scene = octopusLossScene({ ...box, defects });
    const texts = textsOf(group(scene, "locations"));
    expect(texts).toHaveLength(54);
    expect(texts.filter((t) => t === "+")).toHaveLength(defects.filter((d) => d < 5).length);
    expect(texts.filter((t) => t !== "+").every((t) => Number(t) >= 5)).toBe(true);
  });

  it("the difference plot shows current - reference with a sign", () => {
    const current = getPattern(Pattern.P24_2).points.map(() => 25);
    const reference = current.map((_, i) => (i === 0 ? 28 : i === 1 ? 22 : i === 2 ? null : 25));
    expect(thresholdDifference(current, reference).slice(0, 4)).toEqual([-3, 3, null, 0]);
    const texts = textsOf(group(octopusDifferenceScene({ ...box, current, reference }), "locations"));
    expect(texts.slice(0, 3)).toEqual(["-3", "+3", "0"]);
    expect(texts).toHaveLength(53);
  });
});

describe("Humphrey plots", () => {
  it("thresholds: one number per location", () => {
    expect(textsOf(group(humphreyThresholdsScene({ ...box, thresholds: sampleThresholds() }), "locations"))).toHaveLength(54);
  });

  it("deviation plots leave the two blind-spot locations of 24-2 out", () => {
    const values = getPattern(Pattern.P24_2).points.map(() => -2);
    const v = humphreyDeviationValuesScene({ ...box, kind: "total", values });
    expect(textsOf(group(v, "locations"))).toHaveLength(52);
    const s = humphreyDeviationSymbolsScene({ ...box, kind: "pattern", levels: values.map(() => 0.01) });
    expect(ofKind(group(s, "locations").children, "symbol")).toHaveLength(52);
    expect(s.plot).toBe("humphrey.patternDeviationProbability");
    expect(v.title?.default).toBe("Total deviation");
  });

  it("each location's symbol carries its probability level", () => {
    const levels = getPattern(Pattern.P24_2).points.map((_, i) => ([0.005, 0.01, 0.02, 0.05, "normal"] as const)[i % 5]!);
    const symbols = ofKind(humphreyDeviationSymbolsScene({ ...box, kind: "total", levels }), "symbol");
    const blind = new Set(getPattern(Pattern.P24_2).blindSpotIndices);
    expect(symbols.map((s) => s.level)).toEqual(levels.filter((_, i) => !blind.has(i)));
  });
});

// Accounts seed §9: "degree labels 10, 30 or 60 by pattern".
describe("degree labels 10, 30 or 60 by pattern", () => {
  it.each([
    [Pattern.P10_2, 10],
    [Pattern.P24_2, 30],
    [Pattern.P30_2, 30],
    [Pattern.G, 30],
    [Pattern.S28, 30],
    [Pattern.C40, 30],
    [Pattern.Esterman, 60],
  ])("pattern %s is labelled %i°", (pattern, label) => {
    expect(degreeLabel(pattern)).toBe(label);
    const thresholds = getPattern(pattern).points.map(() => 20);
    const axes = group(
      octopusNumericalScene({ ...box, pattern, eye: pattern === Pattern.Esterman ? Eye.Binocular : Eye.Right, thresholds }),
      "axes",
    );
    expect(textsOf(axes)).toEqual([`${label}°`, `${label}°`]);
  });

  it("every location lies inside the axes, and the axes reach the degree label", () => {
    for (const [pattern] of [...counts, [Pattern.Esterman, 120] as const]) {
      const f = fieldFrame({ ...box, pattern, width: 400, height: 300 });
      expect(f.extentX).toBeGreaterThanOrEqual(f.degreeLabel);
      for (const p of f.at) {
        expect(Math.abs(p.x - f.centre.x)).toBeLessThanOrEqual(f.extentX * f.pxPerDegree + 1e-9);
        expect(p.x).toBeGreaterThan(0);
        expect(p.x).toBeLessThan(400);
        expect(p.y).toBeGreaterThan(0);
        expect(p.y).toBeLessThan(300);
      }
    }
  });
});
