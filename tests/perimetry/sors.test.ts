import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Pattern, SorsLocations } from "../../core/model/enums.ts";
import { buildSorsModel } from "../../simulator/perimetry/build-sors.ts";
import { loadSorsModel } from "../../simulator/perimetry/sors-fixtures.ts";
import { reconstruct, reconstructStage } from "../../simulator/perimetry/sors.ts";

const csv = readFileSync(resolve(import.meta.dirname, "../../fixtures/visualfields/vfctrSunyiu24d2.csv"), "utf8");

describe("SORS matrices in fixtures/sors (Kucur & Sznitman 2017)", () => {
  it("the build is reproducible: rebuilding 24-2 gives the shipped fixture", () => {
    const rebuilt = JSON.parse(JSON.stringify(buildSorsModel(Pattern.P24_2, csv)));
    expect(rebuilt).toEqual(loadSorsModel(Pattern.P24_2));
  });

  for (const pattern of [Pattern.P24_2, Pattern.G]) {
    const model = loadSorsModel(pattern);
    const geometry = getPattern(pattern);
    it(`${geometry.label}: every location once, blind spots last, a stage for each SORS count`, () => {
      expect([...model.order].sort((a, b) => a - b)).toEqual(geometry.points.map((_, i) => i));
      const nBlind = geometry.blindSpotIndices.length;
      if (nBlind > 0) expect(model.order.slice(-nBlind)).toEqual([...geometry.blindSpotIndices]);
      for (const k of SorsLocations) {
        const stage = model.stages[String(k)]!;
        expect(stage.chosen).toEqual(model.order.slice(0, k));
        expect(stage.matrix).toHaveLength(geometry.points.length);
        expect(stage.matrix[0]).toHaveLength(k);
      }
    });

    it(`${geometry.label}: the stored D_k reconstructs like the covariance form, and the mean field reconstructs to itself`, () => {
      const stage = model.stages["20"]!;
      const y = stage.chosen.map((i) => model.mean[i]! - 6);
      const a = reconstructStage(model, stage, y);
      const b = reconstruct(model, new Map(stage.chosen.map((i, j) => [i, y[j]!])));
      a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 2));
      const same = reconstruct(model, new Map(stage.chosen.map((i) => [i, model.mean[i]!])));
      same.forEach((v, i) => expect(v).toBeCloseTo(model.mean[i]!, 6));
    });
  }

  it("more tested locations reconstruct the training fields better (error falls with k)", () => {
    const model = loadSorsModel(Pattern.P24_2);
    const rows = csv
      .trim()
      .split("\n")
      .slice(1, 60)
      .map((r) => r.split(",").slice(10).map(Number));
    const err = (k: number) => {
      const stage = model.stages[String(k)]!;
      let e = 0,
        n = 0;
      for (const f of rows) {
        const x = reconstructStage(
          model,
          stage,
          stage.chosen.map((i) => f[i]!),
        );
        x.forEach((v, i) => {
          if (!getPattern(Pattern.P24_2).blindSpotIndices.includes(i)) (e += Math.abs(v - f[i]!)), n++;
        });
      }
      return e / n;
    };
    const e10 = err(10),
      e36 = err(36),
      e54 = err(54);
    expect(e36).toBeLessThan(e10);
    expect(e54).toBeLessThan(e36);
    expect(e10).toBeLessThan(3);
  });
});
