import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { sunyiu24d2 } from "../../core/analytics/normative/generated/sunyiu-24d2.ts";
import { GHT_SECTORS_1_BASED, ghtSectors, glaucomaHemifieldTest, ghtPointScore } from "../../core/analytics/ght.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { deteriorationLimit, eventAnalysis, testRetestSd } from "../../core/analytics/progression/events.ts";
import { analyseSeries } from "../../core/analytics/series-analysis.ts";
import { normalSensitivity } from "../../core/analytics/pointwise.ts";
import { patientRows } from "./reference-data.ts";

const geometry = getPattern(Pattern.P24_2);
const normalField = (age: number, offset = 0) => normalSensitivity(sunyiu24d2, age).map((v) => (v === null ? 0 : v + offset));

describe("Glaucoma Hemifield Test", () => {
  it("five superior sectors of 22 points, mirrored below the horizontal meridian", () => {
    const s = ghtSectors(geometry);
    expect(s.flatMap((x) => x.upper)).toHaveLength(22);
    for (const { upper, lower } of s)
      upper.forEach((u, k) => {
        expect(geometry.points[u]!.y).toBeGreaterThan(0);
        expect(geometry.points[lower[k]!]).toEqual({ x: geometry.points[u]!.x, y: -geometry.points[u]!.y });
      });
    expect(GHT_SECTORS_1_BASED).toHaveLength(5);
  });
  it("point scores: normal 0, 2-5 % 2, 1-2 % 5, <= 1 % at least 10 and deeper defects weigh more", () => {
    const loc = 12;
    const q = (row: number) => sunyiu24d2.pdLut[row]![loc]!;
    expect(ghtPointScore(sunyiu24d2, loc, 0)).toBe(0);
    expect(ghtPointScore(sunyiu24d2, loc, (q(2) + q(3)) / 2)).toBe(2);
    expect(ghtPointScore(sunyiu24d2, loc, (q(1) + q(2)) / 2)).toBe(5);
    expect(ghtPointScore(sunyiu24d2, loc, q(1) - 0.01)).toBeGreaterThanOrEqual(10);
    expect(ghtPointScore(sunyiu24d2, loc, -30)).toBeGreaterThan(ghtPointScore(sunyiu24d2, loc, q(1) - 0.01));
  });
  it("a normal field is within normal limits; a superior arcuate defect is outside normal limits; a uniformly depressed field is a general reduction", () => {
    const nv = sunyiu24d2;
    const age = 60;
    const run = (s: number[]) => analyseResult({ pattern: Pattern.P24_2, eye: Eye.Right, age, thresholds: s }).normative!.ght!.outcome;
    expect(run(normalField(age))).toBe("within normal limits");
    const arcuate = normalField(age);
    for (const i of [0, 1, 4, 5, 6, 7, 10, 11]) arcuate[i] = 5;
    expect(run(arcuate)).toBe("outside normal limits");
    expect(run(normalField(age, -8))).toBe("general reduction of sensitivity");
    expect(run(normalField(age, 6))).toBe("abnormally high sensitivity");
    expect(nv.ght!.differenceQuantiles).toHaveLength(5);
  });
  it("no GHT on patterns other than 24-2", () => {
    expect(glaucomaHemifieldTest(sunyiu24d2, getPattern(Pattern.P10_2), [], 0)).toBeNull();
  });
});

describe("Humphrey's classic MD and PSD (offered next to visualFields' weighting)", () => {
  it("MD = sum(TD/s^2)/sum(1/s^2); PSD^2 = mean(s^2) sum((TD - MD)^2/s^2)/(n - 1)", () => {
    const row = patientRows()[0]!;
    const a = analyseResult({ pattern: Pattern.P24_2, eye: Eye.Right, age: row.age, thresholds: row.sensitivities }).normative!;
    let swx = 0,
      sw = 0,
      s2 = 0,
      n = 0;
    a.td.forEach((t, i) => {
      if (t === null) return;
      const s = sunyiu24d2.sd.td[i]!;
      swx += t / s ** 2;
      sw += 1 / s ** 2;
      s2 += s ** 2;
      n++;
    });
    const md = swx / sw;
    let q = 0;
    a.td.forEach((t, i) => {
      if (t !== null) q += (t - md) ** 2 / sunyiu24d2.sd.td[i]! ** 2;
    });
    expect(a.humphrey.md).toBeCloseTo(md, 12);
    expect(a.humphrey.psd).toBeCloseTo(Math.sqrt(((s2 / n) * q) / (n - 1)), 12);
    // Both weightings agree on the sign and roughly on size; they are not equal.
    expect(Math.sign(a.humphrey.md)).toBe(Math.sign(a.global.tmd));
    expect(a.humphrey.md).not.toBeCloseTo(a.global.tmd, 3);
  });
});

describe("GPA-style event analysis", () => {
  it("Henson variability: sigma = min(6, exp(-0.081 s + 3.27)), limit -1.645 sigma sqrt(1.5)", () => {
    expect(testRetestSd(30)).toBeCloseTo(Math.exp(-0.081 * 30 + 3.27), 12);
    expect(testRetestSd(0)).toBe(6);
    expect(deteriorationLimit(30)).toBeCloseTo(-1.6448536269514722 * Math.exp(-0.081 * 30 + 3.27) * Math.sqrt(1.5), 12);
  });
  const visit = (drop: number[], depth: number) => {
    const s = normalField(60);
    const sens = s.map((v, i) => ([25, 34].includes(i) ? null : drop.includes(i) ? v - depth : v));
    const pd = sens.map((v, i) => (v === null ? null : v - s[i]!));
    return { sensitivities: sens, pd };
  };
  it("3 points on 2 consecutive tests = possible progression; on 3 = likely progression", () => {
    const pts = [12, 13, 20];
    const base = [visit([], 0), visit([], 0)];
    const a = eventAnalysis([...base, visit(pts, 10), visit(pts, 10)]);
    expect(a.current).toBe("possible progression");
    const b = eventAnalysis([...base, visit(pts, 10), visit(pts, 10), visit(pts, 10)]);
    expect(b.status).toEqual(["none", "possible progression", "likely progression"]);
    const c = eventAnalysis([...base, visit(pts, 10), visit([1, 2, 3], 10)]);
    expect(c.current).toBe("none");
    const small = eventAnalysis([...base, visit(pts, 1), visit(pts, 1), visit(pts, 1)]);
    expect(small.current).toBe("none");
  });
  it("series analysis runs events on the patient's real series", () => {
    const rows = patientRows().filter((r) => r.eye === "OS");
    const a = analyseSeries(
      Pattern.P24_2,
      rows.map((r) => ({ date: r.date, age: r.age, thresholds: r.sensitivities })),
      { poplr: false },
    );
    expect(a.events!.status).toHaveLength(rows.length - 2);
    expect(a.poplr).toBeNull();
  });
});
