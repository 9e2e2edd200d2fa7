import { describe, expect, it } from "vitest";
import { greyBand, greyBands, thresholdBand, thresholdBands, valueLegendMax } from "../../core/plots/bands.ts";
import { thresholdColourLegend, totalDeviationLegend, valueLegend } from "../../core/plots/legends.ts";
import type { ProbabilityLevel, SymbolNode } from "../../core/plots/scene.ts";
import { probabilityLevels, symbolInkCoverage, symbolShapes, toProbabilityLevel } from "../../core/plots/symbols.ts";
import { ofKind, textsOf } from "./helpers.ts";

const symbol = (level: ProbabilityLevel): SymbolNode => ({ kind: "symbol", x: 10, y: 10, size: 12, level, fill: "plot-ink" });

// Accounts seed §9: "Probability map levels 0.005, 0.01, 0.02, 0.05."
describe("probability symbols at 0.5, 1, 2 and 5 %", () => {
  it("Probability map levels 0.005, 0.01, 0.02, 0.05", () => {
    expect(probabilityLevels).toEqual([0.005, 0.01, 0.02, 0.05]);
    expect(toProbabilityLevel(0.004)).toBe(0.005);
    expect(toProbabilityLevel(0.005)).toBe(0.005);
    expect(toProbabilityLevel(0.008)).toBe(0.01);
    expect(toProbabilityLevel(0.02)).toBe(0.02);
    expect(toProbabilityLevel(0.049)).toBe(0.05);
    expect(toProbabilityLevel(0.06)).toBe("normal");
    expect(toProbabilityLevel(0.95)).toBe("normal");
    expect(toProbabilityLevel(null)).toBe("normal");
  });

  it("< 0.5 % is a full black square", () => {
    expect(symbolShapes(symbol(0.005))).toEqual([{ kind: "rect", x: 4, y: 4, width: 12, height: 12, fill: "plot-ink" }]);
  });

  it("normal is a single small dot", () => {
    const shapes = symbolShapes(symbol("normal"));
    expect(shapes).toHaveLength(1);
    expect(symbolInkCoverage("normal")).toBeLessThan(0.05);
  });

  it("5 %, 2 % and 1 % are dotted patterns of increasing density, darker as significance grows", () => {
    expect(symbolShapes(symbol(0.05))).toHaveLength(9);
    expect(symbolShapes(symbol(0.02))).toHaveLength(16);
    expect(symbolShapes(symbol(0.01)).length).toBeGreaterThan(1);
    const order: ProbabilityLevel[] = ["normal", 0.05, 0.02, 0.01, 0.005];
    const coverage = order.map(symbolInkCoverage);
    for (let i = 1; i < coverage.length; i++) expect(coverage[i]).toBeGreaterThan(coverage[i - 1]!);
    expect(coverage[4]).toBeCloseTo(1);
  });

  it("every symbol stays inside its square", () => {
    for (const level of ["normal", 0.05, 0.02, 0.01, 0.005] as const)
      for (const s of symbolShapes(symbol(level))) {
        if (s.kind !== "rect") throw new Error("symbols are made of squares");
        expect(s.x).toBeGreaterThanOrEqual(4 - 1e-9);
        expect(s.y).toBeGreaterThanOrEqual(4 - 1e-9);
        expect(s.x + s.width).toBeLessThanOrEqual(16 + 1e-9);
        expect(s.y + s.height).toBeLessThanOrEqual(16 + 1e-9);
      }
  });
});

describe("legends", () => {
  // Accounts seed §9: "Total deviation legend: below 5%, 2%, 1%, 0.5%".
  it("Total deviation legend: below 5%, 2%, 1%, 0.5%", () => {
    const legend = totalDeviationLegend();
    expect(textsOf(legend)).toEqual(["Probability", "< 5 %", "< 2 %", "< 1 %", "< 0.5 %"]);
    expect(ofKind(legend, "symbol").map((s) => s.level)).toEqual([0.05, 0.02, 0.01, 0.005]);
  });

  // Accounts seed §9: "Threshold colour bands (dB): 24-40 (0-10%), 21-23, 17-20, 14-16, 11-13, 8-10, 7-4, 1-3, 0".
  it("Threshold colour bands (dB): 24-40, 21-23, 17-20, 14-16, 11-13, 8-10, 7-4, 1-3, 0", () => {
    expect(thresholdBands.map((b) => b.label)).toEqual(["24-40", "21-23", "17-20", "14-16", "11-13", "8-10", "4-7", "1-3", "0"]);
    expect(textsOf(thresholdColourLegend()).slice(1)).toEqual(thresholdBands.map((b) => b.label));
    expect(new Set(thresholdBands.map((b) => b.colour)).size).toBe(9);
    expect([40, 24, 23, 21, 20, 17, 16, 14, 13, 11, 10, 8, 7, 4, 3, 1, 0, -3].map(thresholdBand)).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
    ]);
    expect(thresholdBand(45)).toBe(0);
  });

  // Accounts seed §9: "Eight grey bands from 1 to 40 dB in steps of 5."
  it("Eight grey bands from 1 to 40 dB in steps of 5", () => {
    const eight = greyBands.slice(1);
    expect(eight.map((b) => b.label)).toEqual(["1-5", "6-10", "11-15", "16-20", "21-25", "26-30", "31-35", "36-40"]);
    for (let db = 1; db <= 40; db++) expect(greyBand(db)).toBe(Math.ceil(db / 5));
    expect(greyBand(0)).toBe(0);
    expect(greyBand(-5)).toBe(0);
    expect(greyBand(44)).toBe(8);
  });

  // Accounts seed §9: "value legend tops out at 47 dB".
  it("value legend tops out at 47 dB", () => {
    expect(valueLegendMax).toBe(47);
    const labels = textsOf(valueLegend()).slice(1).map(Number);
    expect(Math.max(...labels)).toBe(47);
    expect(Math.min(...labels)).toBe(0);
  });
});
