import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import {
  catchTrialText, formatDuration, pairsByDay, previousOfSameKind, progressionPoints, resultValid, type WithResult,
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
    const points = progressionPoints(rs, new Set(["b"]), new Map());
    expect(points.map((p) => [p.measurementId, p.unreliable, p.valid, p.meanDefect])).toEqual([["a", false, true, 1.5], ["b", true, true, 1.5]]);
  });

  it("'a result-detail history shows left/right eye pairs per date', newest day first", () => {
    const rs = [
      result("r1", Eye.Right, "2025-05-01T09:00:00Z"), result("l1", Eye.Left, "2025-05-01T09:10:00Z"),
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
