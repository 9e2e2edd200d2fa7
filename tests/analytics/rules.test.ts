import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { analyseResult, ageAtTest } from "../../core/analytics/result-analysis.ts";
import {
  bebieCurve,
  defectLabel,
  meanSensitivityForDisplay,
  octopusIndices,
  percentDefect,
  roundTo,
} from "../../core/analytics/octopus.ts";
import { estermanScore } from "../../core/analytics/esterman.ts";
import { gazeScaleMax, gazeSummary, GAZE_PRINT_MAX_SAMPLES } from "../../core/analytics/gaze.ts";
import { generalHeight } from "../../core/analytics/pointwise.ts";
import { reliability } from "../../core/analytics/reliability.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { inWindow, isChartable, mdSlope, PROGRESSION_WINDOWS, type ProgressionPoint } from "../../core/analytics/progression/md-slope.ts";
import {
  baselineToggleState,
  followsBaseline,
  noBaselines,
  toggleBaseline,
  toggleUnreliable,
  type MarkedResult,
} from "../../core/analytics/progression/baseline.ts";
import { patientRows } from "./reference-data.ts";

describe("accounts seed §9 display rules", () => {
  it('"Display threshold offset is the 7th highest value" (general height on 24-2, blind spots removed)', () => {
    const td = [...Array(54).keys()].map((i) => (i === 25 || i === 34 ? null : i));
    expect(generalHeight(td, 7)).toBe(47); // 53, 52, 51, 50, 49, 48, 47
    td[50] = null; // a removed location does not count
    expect(generalHeight(td, 7)).toBe(46);
  });
  it('"Defect below 5 shows a plus sign."', () => {
    expect(defectLabel(4.99)).toBe("+");
    expect(defectLabel(-3)).toBe("+");
    expect(defectLabel(5)).toBe("5.00");
    expect(defectLabel(12.345)).toBe("12.35");
  });
  it('"Defect percent = defect/norm*100, zero if negative."', () => {
    expect(percentDefect(7.5, 30)).toBe(25);
    expect(percentDefect(-2, 30)).toBe(0);
  });
  it('"Mean sensitivity below 0 shows 0." and "Values to 2 decimals."', () => {
    expect(meanSensitivityForDisplay(-0.4)).toBe(0);
    expect(meanSensitivityForDisplay(12.3)).toBe(12.3);
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-2.675, 2)).toBe(-2.68);
    expect(roundTo(1.23456, 2)).toBe(1.23);
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
    expect(roundTo(-1.05, 1)).toBe(-1.1); // half away from zero, also for negative slopes
  });
  it('"Esterman score: rounded percentage of seen points (threshold above 0)."', () => {
    const t = [...Array(120)].map((_, i) => (i < 101 ? 10 : 0));
    expect(estermanScore(t)).toBe(84); // 101 / 120 = 84.17 %
    expect(estermanScore([...Array(120)].map(() => null))).toBe(0);
    const r = analyseResult({ pattern: Pattern.Esterman, eye: Eye.Binocular, age: 60, thresholds: t });
    expect(r.estermanScore).toBe(84);
    expect(r.normative).toBeNull();
  });
  it('"VFI rounded integer in %."', () => {
    const row = patientRows()[0]!;
    const r = analyseResult({ pattern: Pattern.P24_2, eye: Eye.Right, age: row.age, thresholds: row.sensitivities });
    expect(r.display.vfi).toBe(58); // visualFields: 58.0907
    expect(r.display.md).toBe(-12.5); // tmd -12.5033
  });
  it('gaze: "scale fixed at 40 if max under 10, else max plus 20; value -1 means could not measure"', () => {
    expect(gazeScaleMax(9.9)).toBe(40);
    expect(gazeScaleMax(10)).toBe(30);
    const g = gazeSummary([1, -1, 3, 12, -1], 2);
    expect(g).toMatchObject({ samples: 5, measured: 3, notMeasured: 2, max: 12, scaleMax: 32, aboveThreshold: 2, printable: true });
    expect(gazeSummary([-1, -1]).scaleMax).toBe(40);
  });
  it("gaze: a test with 500,000 samples (a long test at a high rate; the headset socket takes 4 MB) is summarised, not a crash", () => {
    const samples = Array.from({ length: 500_000 }, (_, i) => (i % 10 === 0 ? -1 : (i % 997) / 100));
    samples[123_457] = 44.5;
    expect(gazeSummary(samples, 5)).toMatchObject({ samples: 500_000, measured: 450_000, max: 44.5, scaleMax: 64.5 });
    expect(
      analyseResult({
        pattern: Pattern.P24_2,
        eye: Eye.Right,
        age: 60,
        thresholds: Array(54).fill(28),
        gazeTracking: { meanDistance: samples },
      }).gaze?.max,
    ).toBe(44.5);
  });
  it('"Gaze bars in print are not drawn if more than 666 samples" (accounts seed §5)', () => {
    expect(gazeSummary(Array(GAZE_PRINT_MAX_SAMPLES).fill(1)).printable).toBe(true);
    expect(gazeSummary(Array(GAZE_PRINT_MAX_SAMPLES + 1).fill(1)).printable).toBe(false);
  });
});

describe("Octopus-style indices", () => {
  it("defect = normal - measured; MD = mean defect; sLV = sqrt(sum (d - MD)^2 / (n - 1)); Bebie = sorted defects", () => {
    const o = octopusIndices([30, 30, 30, null], [28, 20, 31, 5]);
    expect(o.defects).toEqual([2, 10, -1, null]);
    expect(o.md).toBeCloseTo(11 / 3, 12);
    expect(o.slv).toBeCloseTo(Math.sqrt(((2 - 11 / 3) ** 2 + (10 - 11 / 3) ** 2 + (-1 - 11 / 3) ** 2) / 2), 12);
    expect(bebieCurve(o.defects)).toEqual([-1, 2, 10]);
    expect(o.ms).toBeCloseTo(79 / 3, 12);
  });
  it("patterns without a normative database use the device's normValues for defects, and report no statistics", () => {
    const g = getPattern(Pattern.G);
    const r = analyseResult({
      pattern: Pattern.G,
      eye: Eye.Left,
      age: 50,
      thresholds: g.points.map(() => 25),
      normValues: g.points.map(() => 28),
    });
    expect(r.normative).toBeNull();
    expect(r.octopus!.md).toBeCloseTo(3, 12);
    expect(r.octopus!.defects.map(defectLabel).every((l) => l === "+")).toBe(true);
  });
});

describe("reliability against the limits (FL > 20 %, FP > 15 %, FN > 33 %)", () => {
  it("rates from catch trials and the verdict", () => {
    const ok = reliability({
      falsePositive: { errors: 1, presentations: 10 },
      falseNegative: { errors: 3, presentations: 10 },
      blindSpot: { errors: 2, presentations: 10 },
    });
    expect(ok).toMatchObject({ falsePositiveRate: 0.1, falseNegativeRate: 0.3, fixationLossRate: 0.2, reliable: true, problems: [] });
    const bad = reliability({ falsePositive: { errors: 2, presentations: 10 }, blindSpot: { errors: 3, presentations: 10 } });
    expect(bad.reliable).toBe(false);
    expect(bad.problems).toEqual(["fixation-losses", "false-positives"]);
    expect(reliability(null)).toMatchObject({ falsePositiveRate: null, reliable: true });
  });
});

describe("age", () => {
  it("completed years on the test day", () => {
    expect(ageAtTest("1960-06-15", "2024-06-14T10:00:00Z")).toBe(63);
    expect(ageAtTest("1960-06-15", "2024-06-15T10:00:00Z")).toBe(64);
  });
});

const point = (id: string, takenAt: string, md: number, extra: Partial<ProgressionPoint> = {}): ProgressionPoint => ({
  measurementId: id,
  takenAt,
  meanDefect: md,
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  ...extra,
});

describe("MD slope (accounts seed §5, §9)", () => {
  const pts = [
    point("a", "2020-01-01T00:00:00Z", 1),
    point("b", "2021-01-01T00:00:00Z", 2),
    point("c", "2022-01-01T00:00:00Z", 3.6),
    point("d", "2023-01-01T00:00:00Z", 4),
  ];
  it('"Progression is a linear slope of mean defect per year rounded to 1 decimal"', () => {
    const s = mdSlope(pts, { eye: Eye.Right });
    expect(s.slopePerYear).toBe(1.1);
    expect(s.unrounded).toBeCloseTo(1.06, 2);
  });
  it('"computed from the baseline onwards if one exists"', () => {
    expect(mdSlope(pts, { eye: Eye.Right, baselineId: "b" }).points.map((p) => p.measurementId)).toEqual(["b", "c", "d"]);
    expect(mdSlope(pts, { eye: Eye.Right, baselineId: "b" }).slopePerYear).toBe(1);
  });
  it('"Progression chart uses only valid results with pattern G or 24-2 that are not unreliable."', () => {
    expect(isChartable(point("x", "2020-01-01", 1))).toBe(true);
    expect(isChartable(point("x", "2020-01-01", 1, { pattern: Pattern.G }))).toBe(true);
    expect(isChartable(point("x", "2020-01-01", 1, { pattern: Pattern.P10_2 }))).toBe(false);
    expect(isChartable(point("x", "2020-01-01", 1, { unreliable: true }))).toBe(false);
    expect(isChartable(point("x", "2020-01-01", 1, { valid: false }))).toBe(false);
    const withNoise = [
      ...pts,
      point("e", "2023-06-01T00:00:00Z", 99, { unreliable: true }),
      point("f", "2023-06-01T00:00:00Z", 99, { eye: Eye.Left }),
    ];
    expect(mdSlope(withNoise, { eye: Eye.Right }).slopePerYear).toBe(1.1);
  });
  it('windows "all, 366, 31, 7, 1 days"', () => {
    expect([...PROGRESSION_WINDOWS]).toEqual(["all", 366, 31, 7, 1]);
    expect(inWindow(pts, 366, "2023-01-01T00:00:00Z").map((p) => p.measurementId)).toEqual(["c", "d"]);
    expect(inWindow(pts, 1, "2023-01-01T12:00:00Z").map((p) => p.measurementId)).toEqual(["d"]);
    expect(mdSlope(pts, { eye: Eye.Right, window: 7 }).slopePerYear).toBeNull();
  });
  it("no slope from two results, nor from results of one day (the -191,593 dB/year of issue 20), and it says why", () => {
    expect(mdSlope(pts.slice(0, 2), { eye: Eye.Right })).toMatchObject({ slopePerYear: null, noSlope: "too-few-results" });
    const sameDay = [
      point("x", "2024-05-01T09:00:00Z", -2),
      point("y", "2024-05-01T09:20:00Z", -9),
      point("z", "2024-05-01T15:00:00Z", -4),
    ];
    expect(mdSlope(sameDay, { eye: Eye.Right })).toMatchObject({ slopePerYear: null, unrounded: null, noSlope: "too-short-span" });
    expect(mdSlope(pts.slice(0, 3), { eye: Eye.Right }).noSlope).toBeNull();
  });
});

describe("baseline and unreliable marks (accounts seed §4)", () => {
  const r = (id: string, takenAt: string, extra: Partial<MarkedResult> = {}): MarkedResult => ({
    id,
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    takenAt,
    valid: true,
    hasNormativeDatabase: true,
    ...extra,
  });
  const none = new Set<string>();
  it('"at most one per eye; toggling the same id clears it"', () => {
    let ids = toggleBaseline(noBaselines, r("a", "2020-01-01"), none);
    expect(ids).toEqual({ left: null, right: "a" });
    ids = toggleBaseline(ids, r("b", "2021-01-01"), none);
    expect(ids).toEqual({ left: null, right: "b" });
    ids = toggleBaseline(ids, r("c", "2021-01-01", { eye: Eye.Left }), none);
    expect(ids).toEqual({ left: "c", right: "b" });
    expect(toggleBaseline(ids, r("b", "2021-01-01"), none)).toEqual({ left: "c", right: null });
  });
  it('"a result follows baseline if later than the baseline of the same eye and pattern"', () => {
    const base = r("a", "2020-01-01");
    expect(followsBaseline(r("b", "2021-01-01"), base)).toBe(true);
    expect(followsBaseline(r("b", "2019-01-01"), base)).toBe(false);
    expect(followsBaseline(r("b", "2021-01-01", { pattern: Pattern.G }), base)).toBe(false);
    expect(followsBaseline(r("b", "2021-01-01", { eye: Eye.Left }), base)).toBe(false);
  });
  it('"Only results with a normative database can be baseline. Baseline toggle is disabled when the result is not valid or the measurement is unreliable."', () => {
    expect(baselineToggleState(r("a", "2020"), none)).toEqual({ enabled: true });
    expect(baselineToggleState(r("a", "2020", { hasNormativeDatabase: false }), none)).toEqual({
      enabled: false,
      reason: "no-normative-database",
    });
    expect(baselineToggleState(r("a", "2020", { valid: false }), none)).toEqual({ enabled: false, reason: "invalid" });
    expect(baselineToggleState(r("a", "2020"), new Set(["a"]))).toEqual({ enabled: false, reason: "unreliable" });
    expect(toggleBaseline(noBaselines, r("a", "2020", { hasNormativeDatabase: false }), none)).toEqual(noBaselines);
  });
  it('"Marking a measurement unreliable excludes it from the chart; marking it reliable again also clears a baseline mark."', () => {
    const ids = { left: null, right: "a" };
    const marked = toggleUnreliable(new Set(), ids, "a");
    expect([...marked.unreliableIds]).toEqual(["a"]);
    const back = toggleUnreliable(marked.unreliableIds, marked.baselineIds, "a");
    expect([...back.unreliableIds]).toEqual([]);
    expect(back.baselineIds).toEqual({ left: null, right: null });
  });
});
