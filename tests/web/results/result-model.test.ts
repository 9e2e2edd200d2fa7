import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { DEFAULT_NORMATIVE_VERSION } from "../../../core/analytics/normative/registry.ts";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import {
  analyseStored,
  analysisOf,
  catchTrialText,
  displayMeanDefect,
  formatDuration,
  pairsByDay,
  previousOfSameKind,
  progressionPoints,
  resultValid,
  type WithResult,
} from "../../../web/results/result-model.ts";

// The result page's pure rules (accounts seed §3, §4, §9).
const field = (n: number, v = 28) => Array.from({ length: n }, () => v);
const result = (id: string, eye: number, takenAt: string, thresholds = field(54), pattern: number = Pattern.P24_2) =>
  ({ id, result: { eye, pattern, takenAt, thresholds, meanDefect: 1.5 } }) as unknown as WithResult;

describe("result model", () => {
  it("'test duration m:s'", () => {
    expect(formatDuration(368)).toBe("6:08");
    expect(formatDuration(59.6)).toBe("1:00");
    expect(formatDuration(-3)).toBe("0:00");
  });

  it("catch trials read as errors/presentations with their rate", () => {
    expect(catchTrialText({ errors: 3, presentations: 12 })).toBe("3/12 (25 %)");
    expect(catchTrialText({ errors: 0, presentations: 0 })).toBe("–");
    expect(catchTrialText(null)).toBe("–");
  });

  it("a result is valid only with a finite value at every location of its pattern", () => {
    expect(resultValid(result("a", Eye.Right, "2026-01-01").result)).toBe(true);
    expect(resultValid(result("b", Eye.Right, "2026-01-01", field(53)).result)).toBe(false);
    expect(resultValid(result("c", Eye.Right, "2026-01-01", [...field(53), Number.NaN]).result)).toBe(false);
  });

  it("'marking a measurement unreliable excludes it from the chart': the point carries the mark", () => {
    const rs = [result("a", Eye.Right, "2026-01-01T10:00:00Z"), result("b", Eye.Left, "2026-01-01T10:05:00Z")];
    const points = progressionPoints(rs, new Set(["b"]), (m) => m.result.meanDefect);
    expect(points.map((p) => [p.measurementId, p.unreliable, p.valid, p.meanDefect])).toEqual([
      ["a", false, true, 1.5],
      ["b", true, true, 1.5],
    ]);
  });

  it("'a result-detail history shows left/right eye pairs per date', newest day first", () => {
    const rs = [
      result("r1", Eye.Right, "2025-05-01T09:00:00Z"),
      result("l1", Eye.Left, "2025-05-01T09:10:00Z"),
      result("r2", Eye.Right, "2026-02-01T09:00:00Z"),
    ];
    expect(pairsByDay(rs).map((d) => [d.day, d.right.map((m) => m.id), d.left.map((m) => m.id)])).toEqual([
      ["2026-02-01", ["r2"], []],
      ["2025-05-01", ["r1"], ["l1"]],
    ]);
  });

  it("the difference plot compares with the latest earlier valid result of the same eye and pattern", () => {
    const old = result("old", Eye.Right, "2024-01-01");
    const broken = result("broken", Eye.Right, "2025-01-01", field(10));
    const left = result("left", Eye.Left, "2025-06-01");
    const now = result("now", Eye.Right, "2026-01-01");
    expect(previousOfSameKind([old, broken, left, now], now)?.id).toBe("old");
    expect(previousOfSameKind([now], now)).toBeNull();
  });
});

describe("the mean defect the chart and the history print", () => {
  const stored = (pattern: number, thresholds: number[], over: Partial<MeasurementResult> = {}) =>
    ({
      pattern,
      eye: Eye.Right,
      takenAt: "2025-06-01T10:00:00.000Z",
      thresholds,
      normValues: null,
      normativeVersion: DEFAULT_NORMATIVE_VERSION,
      meanDefect: 9.99,
      catchTrials: null,
      gazeTracking: null,
      ...over,
    }) as unknown as MeasurementResult;

  it("is the full analysis' mean defect, for any field of 24-2 (normative) and G (the device's normals)", () => {
    const n24 = getPattern(Pattern.P24_2).points.length,
      nG = getPattern(Pattern.G).points.length;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: n24, maxLength: n24 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: nG, maxLength: nG }),
        fc.constantFrom("1941-02-03", "1970-12-31"),
        (t24, tG, birthdate) => {
          const a = stored(Pattern.P24_2, t24);
          const g = stored(Pattern.G, tG, { normValues: tG.map((_, i) => 30 - (i % 7)), normativeVersion: "isopter-sim-hill-1" });
          expect(displayMeanDefect(a, birthdate)).toBe(analyseStored(a, birthdate)!.display.meanDefect);
          expect(displayMeanDefect(g, birthdate)).toBe(analyseStored(g, birthdate)!.display.meanDefect);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("falls back to the stored value for a result that cannot be analysed; Esterman has none", () => {
    expect(displayMeanDefect(stored(Pattern.P24_2, [1, 2, 3]), "1950-01-01")).toBe(9.99);
    expect(
      displayMeanDefect(
        stored(
          Pattern.Esterman,
          Array.from({ length: 120 }, () => 10),
          { eye: Eye.Binocular },
        ),
        "1950-01-01",
      ),
    ).toBeNull();
  });

  it("analysisOf analyses a stored result once (the same object back) and survives a malformed one", () => {
    const r = stored(
      Pattern.P24_2,
      Array.from({ length: 54 }, () => 28),
    );
    expect(analysisOf(r, "1950-01-01")).toBe(analysisOf(r, "1950-01-01"));
    expect(analysisOf(r, "1950-01-01")).not.toBe(analysisOf(r, "1980-01-01"));
    expect(analysisOf(stored(Pattern.P24_2, [1]), "1950-01-01")).toBeNull();
  });
});
