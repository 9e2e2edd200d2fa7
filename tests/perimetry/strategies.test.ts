import { describe, expect, it } from "vitest";
import { Pattern, Strategy } from "../../core/model/enums.ts";
import { evaluate, specFor } from "../../simulator/perimetry/evaluate.ts";

// Accuracy and cost on simulated patients against the published ballparks of shared/design/analytics.md (loose bounds):
//   "4-2 full threshold about 4-5 presentations per location at normal sensitivity (10-12 in deep defects), MAE about
//    1.5 dB normal / 3 dB deep"; SORS "MAE < 3 dB with about 70% less test time than Dynamic";
//   "supra-threshold screening about 1.5 presentations per location"; Esterman 120 points at 10 dB.
const RUNS = 6;
const p24 = (strategy: Strategy, sors: number | null = null) => specFor(Pattern.P24_2, strategy, sors as never);

describe("strategies on simulated patients", () => {
  it("Normal (4-2): about 4-5 presentations per location and MAE about 1.5 dB at normal sensitivity", () => {
    const e = evaluate(p24(Strategy.Normal), "healthy", RUNS);
    expect(e.presentationsPerLocation).toBeGreaterThan(3.5);
    expect(e.presentationsPerLocation).toBeLessThan(6);
    expect(e.mae!).toBeLessThan(2.2);
  });

  it("Normal (4-2): 10-12 presentations per location and MAE about 3 dB in deep defects (advanced glaucoma)", () => {
    const e = evaluate(p24(Strategy.Normal), "advanced", RUNS);
    expect(e.presentationsPerLocation).toBeGreaterThan(8);
    expect(e.presentationsPerLocation).toBeLessThan(14);
    expect(e.mae!).toBeLessThan(4.5);
  });

  it("DS: fewer presentations than Normal at comparable accuracy in healthy and early glaucoma", () => {
    for (const profile of ["healthy", "early"] as const) {
      const ds = evaluate(p24(Strategy.DS), profile, RUNS);
      const normal = evaluate(p24(Strategy.Normal), profile, RUNS);
      expect(ds.presentationsPerLocation).toBeLessThan(0.75 * normal.presentationsPerLocation);
      expect(ds.mae!).toBeLessThan(2.5);
    }
  });

  it("SORS: MAE below 3 dB (36 and 54 locations, healthy to moderate glaucoma)", () => {
    for (const profile of ["healthy", "early", "moderate"] as const)
      for (const k of [36, 54]) expect(evaluate(p24(Strategy.SORS, k), profile, RUNS).mae!).toBeLessThan(3);
  });

  it("SORS: with 10 or 20 locations at least 50 % less test time than Dynamic (ballpark: about 70 % less)", () => {
    const ds = evaluate(p24(Strategy.DS), "early", RUNS).meanDurationS;
    for (const k of [10, 20]) expect(evaluate(p24(Strategy.SORS, k), "early", RUNS).meanDurationS).toBeLessThan(0.5 * ds);
  });

  it("SORS screening tests 16 locations and still reconstructs a healthy field within 3 dB", () => {
    const e = evaluate(p24(Strategy.SORS_screening), "healthy", RUNS);
    expect(e.mae!).toBeLessThan(3);
  });

  it("Supra: about 1.5 presentations per location or fewer, and classifies healthy locations correctly", () => {
    const healthy = evaluate(p24(Strategy.Supra), "healthy", RUNS);
    expect(healthy.presentationsPerLocation).toBeLessThan(1.6);
    expect(healthy.agreement!).toBeGreaterThan(0.95);
    const moderate = evaluate(p24(Strategy.Supra), "moderate", RUNS);
    expect(moderate.presentationsPerLocation).toBeGreaterThan(healthy.presentationsPerLocation);
    expect(moderate.agreement!).toBeGreaterThan(0.8);
  });

  it("1LT Esterman: a healthy patient sees nearly all 120 points; hemianopia loses about half", () => {
    const healthy = evaluate(specFor(Pattern.Esterman, Strategy.OneLevel), "healthy", RUNS);
    expect(healthy.agreement!).toBeGreaterThan(0.97);
    expect(healthy.presentationsPerLocation).toBeLessThan(1.2);
    const hemi = evaluate(specFor(Pattern.Esterman, Strategy.OneLevel), "hemianopia", RUNS);
    expect(hemi.presentationsPerLocation).toBeGreaterThan(1.3);
  });

  it("the unreliable responder shows up in the catch trials (FP > 15 %, fixation losses > 20 % limits)", () => {
    const e = evaluate(p24(Strategy.Normal), "unreliable", RUNS);
    expect(e.meanFalsePositives).toBeGreaterThan(0.1);
    expect(e.meanFixationLosses).toBeGreaterThan(0.15);
    const h = evaluate(p24(Strategy.Normal), "healthy", RUNS);
    expect(h.meanFalsePositives).toBeLessThan(0.1);
    expect(h.meanFixationLosses).toBeLessThan(0.15);
  });
});
