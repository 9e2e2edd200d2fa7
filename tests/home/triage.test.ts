import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { mdOutlier, newClusters } from "../../core/home/outlier.ts";
import { orderByNeed, type Triage, triage } from "../../core/home/triage.ts";
import { Pattern, Strategy } from "../../core/model/enums.ts";
import { BIRTHDATE, homeResult, type ResultSpec, SCATTERED, UPPER_TRIPLE } from "./fixtures.ts";

const weeks = ["2026-01-02", "2026-01-09", "2026-01-16", "2026-01-23", "2026-01-30", "2026-02-06"];
const at = (k: number, spec: Omit<ResultSpec, "id" | "takenAt"> = {}) =>
  homeResult({ id: `r${k}`, takenAt: `${weeks[k]}T10:00:00.000Z`, ...spec });
const normalSeries = [0, 1, 2, 3].map((k) => at(k));
const triageOf = (spec: Omit<ResultSpec, "id" | "takenAt">, series = normalSeries, extra = {}) =>
  triage({ result: at(4, spec), series, birthdate: BIRTHDATE, ...extra });
const kinds = (t: Triage) => t.flags.map((f) => f.kind);
const reasonsOf = (t: Triage, kind: string) => t.flags.find((f) => f.kind === kind)?.reasons ?? [];

describe("unreliable: catch trials and gaze beyond limits", () => {
  it("uses the result page's limits (reliability.ts): false positives > 15 %, false negatives > 33 %, fixation losses > 20 %", () => {
    expect(reasonsOf(triageOf({ fp: 4 }), "unreliable")).toEqual([{ code: "false-positives", rate: 0.2, limit: 0.15 }]);
    expect(kinds(triageOf({ fp: 3 }))).toEqual([]); // 15 % is within the limit
    expect(reasonsOf(triageOf({ fn: 7, fl: 5 }), "unreliable")).toEqual([
      { code: "fixation-losses", rate: 0.25, limit: 0.2 },
      { code: "false-negatives", rate: 0.35, limit: 0.33 },
    ]);
  });

  it("gaze (our limit, 20 % as for fixation losses): samples beyond the fixation threshold, or not measured", () => {
    const samples = (off: number, lost: number) => [...Array(off).fill(5), ...Array(lost).fill(-1), ...Array(30 - off - lost).fill(1)];
    const gaze = (off: number, lost: number) => ({ gaze: { meanDistance: samples(off, lost), fixationThreshold: 2 } });
    expect(kinds(triageOf(gaze(6, 0)))).toEqual([]); // 6 of 30 = 20 %
    expect(reasonsOf(triageOf(gaze(7, 0)), "unreliable")).toEqual([{ code: "gaze-off-target", share: 7 / 30, limit: 0.2, samples: 30 }]);
    expect(reasonsOf(triageOf(gaze(0, 7)), "unreliable")).toEqual([{ code: "gaze-lost", share: 7 / 30, limit: 0.2, samples: 30 }]);
  });
});

describe("outlier: MD more than 3 dB from the median of the last five, or a new cluster", () => {
  it("the issue's words, at the boundary: 3.00 dB is not more than 3 dB, 3.01 is (MD as the page shows it)", () => {
    expect(kinds(triageOf({ shift: -3 }))).toEqual([]);
    expect(reasonsOf(triageOf({ shift: -3.01 }), "outlier")).toEqual([
      { code: "md-from-median", md: -3.01, median: 0, difference: -3.01, limit: 3, results: 4 },
    ]);
    expect(kinds(triageOf({ shift: 3.01 }))).toEqual(["outlier"]); // either way: a field much better than usual is suspect too
    // Floating point would put -5.1 - (-2.1) at -2.9999999999999996; hundredths keep it at the boundary, not past it.
    expect(mdOutlier(-5.1, [-2.3, -2.1, -1.9])).toBeNull();
    expect(mdOutlier(-5.11, [-2.3, -2.1, -1.9])).toMatchObject({ median: -2.1, difference: -3.01 });
  });

  it("reads the last five only, leaves out results the clinician marked unreliable, and needs three", () => {
    expect(mdOutlier(0, [-9, -9, -9, 0, 0, 0, 0, 0])).toBeNull(); // the median of the last five is 0
    expect(mdOutlier(0, [0, 0, -9, -9, -9, 0, 0])).toMatchObject({ median: -9, results: 5 }); // of all seven: 0
    const series = [at(0, { shift: -10 }), at(1, { shift: -10 }), at(2), at(3)];
    expect(kinds(triageOf({ shift: -3.5 }, series))).toEqual([]); // the median of -10, -10, 0, 0 is -5
    expect(reasonsOf(triageOf({ shift: -3.5 }, series, { unreliableIds: new Set(["r0"]) }), "outlier")).toEqual([
      { code: "md-from-median", md: -3.5, median: 0, difference: -3.5, limit: 3, results: 3 },
    ]);
    const few = triageOf({ shift: -8 }, normalSeries.slice(0, 2));
    expect(kinds(few)).toEqual([]);
    expect(few.notApplicable).toContainEqual({ check: "md-outlier", reason: "too-few-results" });
  });

  it("a new cluster: 3 neighbouring locations at p < 5 % on PD, not so on the previous result", () => {
    expect(reasonsOf(triageOf({ depressed: UPPER_TRIPLE }), "outlier")).toEqual([{ code: "new-cluster", locations: [...UPPER_TRIPLE] }]);
    expect(kinds(triageOf({ depressed: SCATTERED }))).toEqual([]); // three defects, no two neighbours
    const already = [...normalSeries.slice(0, 3), at(3, { depressed: UPPER_TRIPLE })];
    expect(reasonsOf(triageOf({ depressed: UPPER_TRIPLE }, already), "outlier")).toEqual([]); // not new
  });

  it("neighbours stay within a hemifield: a defect across the horizontal midline is two", () => {
    const points = getPattern(Pattern.P24_2).points;
    const index = (x: number, y: number) => points.findIndex((p) => p.x === x && p.y === y);
    const level = (down: number[]) => points.map((_, i) => (down.includes(i) ? 0.005 : 1) as 0.005 | 1);
    const before = level([]);
    expect(newClusters(Pattern.P24_2, level([index(-3, 3), index(3, 3), index(-3, -3), index(3, -3)]), before)).toEqual([]);
    expect(newClusters(Pattern.P24_2, level([index(-3, 3), index(3, 3), index(9, 3)]), before)).toHaveLength(1);
    expect(newClusters(Pattern.P10_2, [], [])).toBe("pattern"); // CIGTS's neighbours are 24-2's
  });

  it("says which checks could not be made, and why", () => {
    expect(triageOf({}, []).notApplicable).toEqual([
      { check: "md-outlier", reason: "too-few-results" },
      { check: "new-cluster", reason: "no-previous-result" },
      { check: "progression", reason: "too-few-results" },
    ]);
    expect(triageOf({ strategy: Strategy.Supra }).notApplicable).toEqual([
      { check: "md-outlier", reason: "not-threshold" },
      { check: "new-cluster", reason: "not-threshold" },
      { check: "progression", reason: "not-threshold" },
    ]);
  });
});

describe("progression: an event, or a criterion turning to worsening", () => {
  const arc = { depressed: UPPER_TRIPLE };
  it("GPA-style events: possible progression on the second result with the defect, likely on the third", () => {
    const series = [at(0), at(1), at(2, arc)];
    const possible = triage({ result: at(3, arc), series, birthdate: BIRTHDATE });
    expect(reasonsOf(possible, "progression")).toEqual([{ code: "progression-event", status: "possible progression", previous: "none" }]);
    const likely = triage({ result: at(4, arc), series: [...series, at(3, arc)], birthdate: BIRTHDATE });
    expect(reasonsOf(likely, "progression")).toContainEqual({
      code: "progression-event",
      status: "likely progression",
      previous: "possible progression",
    });
  });

  it("Schell 2014 (MD 3 dB below the baseline pair on the last two tests) turns to worsening with the fourth test", () => {
    const t = triage({ result: at(3, { shift: -4 }), series: [at(0), at(1), at(2, { shift: -4 })], birthdate: BIRTHDATE });
    expect(reasonsOf(t, "progression")).toContainEqual({ code: "criterion-worsening", method: "schell-2014", previous: "not-applicable" });
  });
});

describe("missed sessions and the order of need", () => {
  it("flags the sessions missed in a row before the result", () => {
    expect(reasonsOf(triageOf({}, normalSeries, { missedSessions: 2 }), "missed")).toEqual([{ code: "missed-sessions", sessions: 2 }]);
  });

  it("orders by the first flag (unreliable, outlier, progression, missed), then more flags, then the oldest; unflagged last", () => {
    const item = (id: string, takenAt: string, ...flagKinds: Triage["flags"][number]["kind"][]): Triage => ({
      resultId: id,
      patientId: "p",
      eye: 0,
      takenAt,
      flags: flagKinds.map((kind) => ({ kind, reasons: [] })),
      notApplicable: [],
    });
    const queue = [
      item("none", "2026-01-01"),
      item("missed", "2026-01-01", "missed"),
      item("outlier-new", "2026-01-05", "outlier"),
      item("outlier-old", "2026-01-02", "outlier"),
      item("outlier-progression", "2026-01-09", "outlier", "progression"),
      item("unreliable", "2026-01-09", "unreliable"),
      item("progression", "2026-01-01", "progression"),
    ];
    expect(orderByNeed(queue).map((t) => t.resultId)).toEqual([
      "unreliable",
      "outlier-progression",
      "outlier-old",
      "outlier-new",
      "progression",
      "missed",
      "none",
    ]);
  });
});
