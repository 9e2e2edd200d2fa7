import { describe, expect, it } from "vitest";
import { baselineChange } from "../../../core/analytics/progression/criteria/baseline-change.ts";
import { seriesCriteria } from "../../../core/analytics/progression/criteria/index.ts";
import { ALL_LOCATIONS, PATTERN, simulatedSeries } from "./simulated-series.ts";

// CIGTS (Musch et al., Ophthalmology 1999): "a CIGTS score 3 or more above the mean of the two baseline tests,
// confirmed on 3 consecutive tests"; Schell et al. (Ophthalmology 2014) as vfprogression describes it: "essentially
// like CIGTS but with MD, and only one follow-up is enough to confirm", a loss of 3 dB. vfprogression's note: "If a VF
// series is temporarily improving and temporarily worsening, it is assumed to be stable overall".

const cigts = (scores: number[]) => baselineChange(scores, true, 3, 3).verdict;
const schell = (md: number[]) => baselineChange(md, false, 3, 2).verdict;

describe("the baseline-pair rule of CIGTS and Schell 2014", () => {
  it("CIGTS: 3 or more above the baseline pair's mean on the last 3 tests", () => {
    expect(cigts([2, 3, 5.5, 5.6, 6])).toBe("worsening"); // baseline 2.5: +3.0, +3.1, +3.5
    expect(cigts([2, 3, 5.5, 5.6, 5.4])).toBe("stable"); // the last only +2.9
    expect(cigts([2, 3, 9, 9, 1])).toBe("stable"); // not confirmed at the end
    expect(cigts([5, 5, 1, 1, 1.9])).toBe("improving"); // 3 or more below on all three
    expect(cigts([2, 3, -1, 6, 6, 6])).toBe("stable"); // both ways on single tests
    expect(baselineChange([2, 3, 5.5, 5.6, 6], true, 3, 3).detail).toMatchObject({ baseline: 2.5, threshold: 3, confirmations: 3 });
  });

  it("Schell 2014: MD 3 dB or more below the baseline pair's mean on the last 2 tests", () => {
    expect(schell([-2, -2, -5, -5.1])).toBe("worsening");
    expect(schell([-2, -2, -5, -4.9])).toBe("stable");
    expect(schell([-2, -2, 1.5, 1])).toBe("improving");
    expect(schell([-2, -2, 1.5, -5, -5.5])).toBe("stable"); // improved once, then worse: both ways
  });

  it("on a series: CIGTS from the per-field score, Schell from Humphrey's MD; diffuse loss of 2 dB/year over 3 years is worsening for both", () => {
    const c = seriesCriteria(PATTERN, simulatedSeries({ seed: 4, visits: 7, interval: 0.5, noise: 0.5, rate: 2, where: ALL_LOCATIONS }));
    for (const id of ["cigts", "schell-2014"])
      expect(c.methods.find((m) => m.method === id)).toMatchObject({ applicable: true, verdict: "worsening" });
    const score = c.methods.find((m) => m.method === "cigts")! as { detail: { values: number[] } };
    expect(score.detail.values).toHaveLength(7);
    expect(score.detail.values.every((v) => v >= 0 && v <= 20)).toBe(true);
  });

  it("need 5 visits (CIGTS: the baseline pair and 3 confirmations) and 4 (Schell: the pair and 2)", () => {
    const four = seriesCriteria(PATTERN, simulatedSeries({ seed: 1, visits: 4, interval: 0.5, noise: 1, rate: 0, where: [] }));
    expect(four.methods.find((m) => m.method === "cigts")).toMatchObject({ applicable: false, reason: "too-few-visits" });
    expect(four.methods.find((m) => m.method === "schell-2014")).toMatchObject({ applicable: true });
    const three = seriesCriteria(PATTERN, simulatedSeries({ seed: 1, visits: 3, interval: 0.5, noise: 1, rate: 0, where: [] }));
    expect(three.methods.find((m) => m.method === "schell-2014")).toMatchObject({ applicable: false, reason: "too-few-visits" });
  });
});
