import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import {
  analyseResult,
  analyseSeries,
  AGE_LINEAR_NORMATIVE_VERSION,
  DEFAULT_NORMATIVE_VERSION,
  getPattern,
} from "../../core/analytics/index.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { patientRows, readFixture } from "./reference-data.ts";

describe("analyseResult", () => {
  const row = patientRows()[3]!;
  const base = { pattern: Pattern.P24_2, eye: Eye.Right, age: row.age, thresholds: row.sensitivities } as const;
  it("uses the result's normativeVersion, the default when missing", () => {
    expect(analyseResult(base).normative!.normativeVersion).toBe(DEFAULT_NORMATIVE_VERSION);
    const ours = analyseResult({ ...base, normativeVersion: AGE_LINEAR_NORMATIVE_VERSION }).normative!;
    expect(ours.normativeVersion).toBe(AGE_LINEAR_NORMATIVE_VERSION);
    expect(ours.td[0]).not.toBe(analyseResult(base).normative!.td[0]);
    expect(analyseResult({ ...base, normativeVersion: "unknown" }).normative).toBeNull();
  });
  it("an incomplete field (an untested location) gets no statistics but keeps its reliability", () => {
    const t = [...row.sensitivities] as Array<number | null>;
    t[3] = null;
    const r = analyseResult({ ...base, thresholds: t, catchTrials: { falsePositive: { errors: 5, presentations: 10 } } });
    expect(r.normative).toBeNull();
    expect(r.reliability.reliable).toBe(false);
  });
  it("rejects a threshold vector of the wrong length, naming the field", () => {
    expect(() => analyseResult({ ...base, thresholds: [1, 2, 3] })).toThrow(/thresholds: pattern 24-2 has 54 locations/);
  });
  it("10-2 results use the 10-2 database (general height = 10th highest of 68)", () => {
    const r10 = parseVisualFieldsCsv(readFixture("vfctrSunyiu10d2.csv"))[0]!;
    const a = analyseResult({ pattern: Pattern.P10_2, eye: Eye.Left, age: r10.age, thresholds: r10.sensitivities });
    const sorted = a.normative!.td.filter((v): v is number => v !== null).sort((x, y) => y - x);
    expect(a.normative!.gh).toBe(sorted[9]);
    expect(a.normative!.ght).toBeNull();
  });
  it("a left-eye result reads its thresholds in the same right-eye index order (no re-ordering)", () => {
    const right = analyseResult(base).normative!;
    const left = analyseResult({ ...base, eye: Eye.Left }).normative!;
    expect(left.td).toEqual(right.td);
  });
});

describe("analyseSeries on patterns without a normative database", () => {
  it("gives sensitivity PLR and PoPLR, and no TD-based outputs", () => {
    const g = getPattern(Pattern.G);
    const visits = [0, 1, 2, 3].map((k) => ({
      date: `201${k}-05-01`,
      age: 60 + k,
      thresholds: g.points.map((_, i) => 30 - k * (i % 3)),
    }));
    const a = analyseSeries(Pattern.G, visits);
    expect(a.glr).toBeNull();
    expect(a.plr.td).toBeNull();
    expect(a.plr.s[0]!.slope).toBeCloseTo(0, 12);
    expect(a.plr.s[1]!.slope).toBeLessThan(0);
    expect(a.poplr!.s!.exact).toBe(true);
    expect(a.poplr!.s!.nperm).toBe(24);
    expect(a.poplr!.td).toBeNull();
    expect(a.events).toBeNull();
  });
  it("needs at least 3 visits", () => {
    expect(() => analyseSeries(Pattern.G, [])).toThrow(/at least 3 visits/);
  });
});
