import { describe, expect, it } from "vitest";
import { CURRENT_NORMATIVE_VERSION } from "../../../core/analytics/normative/registry.ts";
import { seriesCriteria, type VfiTrendDetail } from "../../../core/analytics/progression/criteria/index.ts";
import { Pattern } from "../../../core/model/enums.ts";
import { ALL_LOCATIONS, PATTERN, type SeriesSpec, simulatedSeries, UPPER_ARC } from "./simulated-series.ts";

// The VFI trend under GPA's rules (HFA II-i user manual, GPA chapter): "A minimum of 5 exams over 2 years or more must
// be included in GPA for the linear regression results to be presented. In addition, the linear regression line will
// not be drawn if the slope of the line is positive. Finally, this line will also not be drawn when the 95% confidence
// limit on the measured slope is greater than 5%." The VFI bar shows "the 2 to 5 year projection".

const vfi = (spec: SeriesSpec, pattern: Pattern = PATTERN, normativeVersion: string | null = null) =>
  seriesCriteria(pattern, simulatedSeries({ ...spec, pattern, normativeVersion }), { nperm: 100, normativeVersion }).methods.find(
    (m) => m.method === "vfi-trend",
  )!;
const base: SeriesSpec = { seed: 3, visits: 6, interval: 0.5, noise: 1, rate: 2, where: UPPER_ARC, defect: 4 };

describe("VFI trend (GPA's rules)", () => {
  it("shown from 5 exams over 2 years; not with 4, nor with 5 over 1.5 years", () => {
    expect(vfi({ ...base, visits: 5 })).toMatchObject({ applicable: true });
    expect(vfi({ ...base, visits: 4, interval: 1 })).toMatchObject({ applicable: false, reason: "too-few-visits" });
    expect(vfi({ ...base, visits: 5, interval: 0.375 })).toMatchObject({ applicable: false, reason: "too-short-follow-up" });
  });

  it("not shown with a positive slope (an eye gaining sensitivity) or a 95 % confidence limit over 5 %/year", () => {
    expect(vfi({ ...base, rate: -2 })).toMatchObject({ applicable: false, reason: "not-shown-by-rule" });
    // 5 exams with 6 dB of test-retest noise: the slope is too uncertain to draw.
    expect(vfi({ seed: 3, visits: 5, interval: 0.5, noise: 6, rate: 0.5, where: ALL_LOCATIONS })).toMatchObject({
      applicable: false,
      reason: "not-shown-by-rule",
    });
  });

  it("worsening when the slope is negative with two-sided p <= 5 % (our level); projected 2 to 5 years with a widening band", () => {
    const out = vfi(base);
    if (!out.applicable) throw new Error(out.reason);
    const d = out.detail as VfiTrendDetail;
    expect(out.verdict).toBe("worsening");
    expect(d.slopePerYear).toBeLessThan(0);
    expect(d.p).toBeLessThanOrEqual(0.05);
    expect(d.confidence95[1] - d.confidence95[0]).toBeLessThanOrEqual(10);
    expect(d.projection.map((p) => p.yearsAhead)).toEqual([2, 3, 4, 5]);
    for (const p of d.projection) {
      expect(p.vfi).toBeCloseTo(d.vfiAtLast + d.slopePerYear * p.yearsAhead, 9);
      expect(p.lower).toBeLessThan(p.vfi);
      expect(p.upper).toBeGreaterThan(p.vfi);
    }
    const widths = d.projection.map((p) => p.upper - p.lower);
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
    // A slower loss (0.5 dB/year at the arc) in the same noise: a negative slope, not significant.
    expect(vfi({ ...base, rate: 0.5 })).toMatchObject({ verdict: "stable", detail: { slopePerYear: expect.any(Number) } });
  });

  it("a Humphrey index: on 24-2 and 30-2, not on G or 10-2", () => {
    expect(vfi(base, Pattern.P30_2, CURRENT_NORMATIVE_VERSION)).toMatchObject({ applicable: true });
    expect(vfi({ ...base, where: [] }, Pattern.G, CURRENT_NORMATIVE_VERSION)).toMatchObject({ applicable: false, reason: "pattern" });
    expect(vfi({ ...base, where: [] }, Pattern.P10_2)).toMatchObject({ applicable: false, reason: "pattern" });
  });
});
