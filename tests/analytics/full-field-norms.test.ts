import { describe, expect, it } from "vitest";
import { fullFieldModel } from "../../scripts/build-norms.ts";
import { fullFieldCalibration, formatCalibration } from "../../core/analytics/normative/calibration.ts";
import { kernelAt, parseIowaControls } from "../../core/analytics/normative/full-field.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase, normativeDatabaseName } from "../../core/analytics/normative/registry.ts";
import { sunyiu24d2 } from "../../core/analytics/normative/generated/sunyiu-24d2.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { readFixture, visualFieldsDir } from "./reference-data.ts";

// Issue 20 point 1: 30-2 and G normals from the Iowa full-field healthy controls (fixtures/visualfields), with their
// calibration printed: held-out controls flagged below 5 % and 1 % (aim within 1.5x of nominal), the difference
// from SUNY-IU 24-2 where 30-2 and 24-2 share locations, and SUNY-IU's healthy Humphrey fields read with the tables.
const built = fullFieldModel(visualFieldsDir);
const calibration = fullFieldCalibration(built, parseVisualFieldsCsv(readFixture("vfctrSunyiu24d2.csv")), sunyiu24d2);

describe("full-field normative model (Iowa healthy controls)", () => {
  it("joins each eye's central and peripheral tests: 196 tests over 128 locations", () => {
    expect(built.controls.rows).toHaveLength(196);
    expect(built.controls.points).toHaveLength(128);
    expect(new Set(built.controls.rows.map((r) => `${r.id}/${r.eye}`)).size).toBe(98);
  });

  it("calibration, printed: held-out healthy fields are flagged within 1.5x of the nominal 5 % and 1 %", () => {
    console.log(formatCalibration(calibration));
    for (const { calibration: k } of calibration.heldOut)
      for (const kind of [k.td, k.pd]) {
        expect(kind.p5).toBeGreaterThan(0.05 / 1.5);
        expect(kind.p5).toBeLessThan(0.05 * 1.5);
        expect(kind.p1).toBeGreaterThan(0.01 / 1.5);
        expect(kind.p1).toBeLessThan(0.01 * 1.5);
      }
  });

  it("model 2 reads healthy Humphrey fields (SUNY-IU 24-2, held out) near nominal at 5 %; model 1, with the Iowa test's spread, did not", () => {
    const [model1, model2] = calibration.external;
    expect(model1!.p5).toBeGreaterThan(0.1); // 12.7 %: why model 2 exists
    expect(model2!.p5).toBeGreaterThan(0.05 / 1.5);
    expect(model2!.p5).toBeLessThan(0.05 * 1.5);
    // At 1 % Humphrey's healthy tails stay heavier than the Iowa residuals' shape (1.7 %, above 1.5x): printed, and
    // held to under 2x here, so a regression shows.
    expect(model2!.p1).toBeLessThan(0.02);
    expect(model2!.p1).toBeLessThan(model1!.p1 / 2);
  });

  it("anchored to SUNY-IU 24-2: at the shared locations the mean normal differs by under 0.25 dB, each by under 2 dB", () => {
    for (const d of calibration.sunyiuDifference.filter((x) => x.anchored)) {
      expect(Math.abs(d.mean)).toBeLessThan(0.25);
      expect(Math.max(-d.min, d.max)).toBeLessThan(2);
    }
    // As fitted, the Iowa test reads higher than Humphrey: that is why the model is anchored.
    for (const d of calibration.sunyiuDifference.filter((x) => !x.anchored)) expect(d.mean).toBeGreaterThan(1);
  });

  it("the kernel reproduces a plane exactly (local-linear), so smooth hills are not flattened at the grid's edge", () => {
    const pts = built.controls.points;
    const plane = pts.map((p) => 30 - 0.1 * p.x + 0.2 * p.y);
    for (const p of [
      { x: 27, y: 9 },
      { x: -3, y: 27 },
      { x: 0, y: 0 },
    ])
      expect(kernelAt(pts, plane, p)).toBeCloseTo(30 - 0.1 * p.x + 0.2 * p.y, 9);
  });

  it("normals fall with age and with eccentricity; blind spots stay out of 30-2's tables", () => {
    for (const pattern of [Pattern.P30_2, Pattern.G]) {
      const t = getNormativeDatabase(pattern, CURRENT_NORMATIVE_VERSION)!;
      const g = getPattern(pattern);
      expect(t.nloc).toBe(g.points.length);
      g.points.forEach((_p, i) => {
        if (t.intercept[i] === null) return expect(g.blindSpotIndices).toContain(i);
        expect(t.slope[i]!).toBeLessThan(0);
        expect(t.tdLut[0]![i]!).toBeLessThan(t.tdLut[7]![i]!);
      });
      const centre = g.points.findIndex((p) => Math.hypot(p.x, p.y) < 5);
      const edge = g.points.findIndex((p) => Math.hypot(p.x, p.y) > 25);
      expect(t.intercept[centre]!).toBeGreaterThan(t.intercept[edge]! + 2);
    }
    const t30 = getNormativeDatabase(Pattern.P30_2, CURRENT_NORMATIVE_VERSION)!;
    expect(t30.intercept[35]).toBeNull();
    expect(t30.intercept[45]).toBeNull();
    expect(t30.ght).not.toBeNull();
  });

  it("a healthy 30-2 and G field at the normal reads near 0 dB MD; a deep superior loss is flagged and, on 30-2, fails the GHT", () => {
    for (const pattern of [Pattern.P30_2, Pattern.G]) {
      const t = getNormativeDatabase(pattern, CURRENT_NORMATIVE_VERSION)!;
      const normal = t.intercept.map((a, i) => (a === null ? 0 : a + t.slope[i]! * 65));
      const healthy = analyseResult({ pattern, eye: Eye.Right, age: 65, thresholds: normal, normativeVersion: CURRENT_NORMATIVE_VERSION });
      expect(Math.abs(healthy.normative!.global.tmd)).toBeLessThan(1);
      const g = getPattern(pattern);
      const lossy = normal.map((v, i) => (g.points[i]!.y > 0 && g.points[i]!.x < 0 ? Math.max(0, v - 15) : v));
      const a = analyseResult({ pattern, eye: Eye.Right, age: 65, thresholds: lossy, normativeVersion: CURRENT_NORMATIVE_VERSION });
      expect(a.normative!.pdp.filter((l) => l !== null && l <= 0.01).length).toBeGreaterThan(8);
      expect(a.normative!.global.tmd).toBeLessThan(-3);
      if (pattern === Pattern.P30_2) expect(a.normative!.ght!.outcome).toBe("outside normal limits");
      else expect(a.normative!.ght).toBeNull(); // the GHT is not defined for G
    }
  });

  it("names the database honestly: our model, its controls and the version", () => {
    expect(normativeDatabaseName(Pattern.G, CURRENT_NORMATIVE_VERSION)).toBe(
      `Isopter full-field model 2, G (Iowa healthy controls, SUNY-IU spread) · ${CURRENT_NORMATIVE_VERSION}`,
    );
    expect(getNormativeDatabase(Pattern.P30_2, CURRENT_NORMATIVE_VERSION)!.source).toMatch(/not a manufacturer's database/);
    expect(normativeDatabaseName(Pattern.G, null)).toBeNull();
  });

  it("bad control data is refused naming the line and field", () => {
    expect(() => parseIowaControls('"id","eye","age","fpr","fnr","fl","l1"\n"a","OX",50,0,0,0,30', 1, "x.csv")).toThrow(
      /x.csv line 2, field eye/,
    );
    expect(() => parseIowaControls('"id","eye","age","fpr","fnr","fl","l1"\n"a","OD",50,0,0,0,', 1, "x.csv")).toThrow(
      /field l1: not a number/,
    );
  });
});
