import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { analyseResult, type ResultInput } from "../../../core/analytics/result-analysis.ts";
import { normalSensitivity } from "../../../core/analytics/pointwise.ts";
import { CURRENT_NORMATIVE_VERSION, DEFAULT_NORMATIVE_VERSION, getNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import { HODAPP_STAGES, type FieldStages } from "../../../core/analytics/stages/index.ts";

const AGE = 60;
const blind24 = new Set(getPattern(Pattern.P24_2).blindSpotIndices);
/** The normal field of a 60-year-old on `pattern` (TD 0 everywhere), blind spots null. */
function normalField(pattern: Pattern, version = CURRENT_NORMATIVE_VERSION): Array<number | null> {
  const nv = getNormativeDatabase(pattern, version)!;
  return normalSensitivity(nv, AGE).map((v, i) => (nv.blindSpotIndices.includes(i) ? null : v));
}
const analyse = (input: Partial<ResultInput> & Pick<ResultInput, "thresholds">) =>
  analyseResult({ pattern: Pattern.P24_2, eye: Eye.Right, age: AGE, normativeVersion: CURRENT_NORMATIVE_VERSION, ...input });
const field24 = fc
  .array(fc.integer({ min: 0, max: 35 }), { minLength: 54, maxLength: 54 })
  .map((v) => v.map((x, i) => (blind24.has(i) ? null : x)));
const reasons = (s: FieldStages) => [s.hodapp, s.gss2, s.agis, s.cigts].map((o) => (o.applicable ? "applicable" : o.reason));

describe("fieldStages through analyseResult (issue 30)", () => {
  it("a normal 24-2 and 30-2 field: HPA early, GSS 2 stage 0, AGIS 0, CIGTS 0", () => {
    for (const pattern of [Pattern.P24_2, Pattern.P30_2]) {
      const { stages } = analyse({ pattern, thresholds: normalField(pattern) });
      expect(stages.hodapp).toMatchObject({ applicable: true, stage: "early" });
      expect(stages.gss2).toMatchObject({ applicable: true, stage: "0" });
      expect(stages.agis).toMatchObject({ applicable: true, score: 0 });
      expect(stages.cigts).toEqual({ applicable: true, score: 0 });
    }
  });

  it("HPA and GSS 2 read Humphrey STATPAC's MD and PSD (normative.humphrey), not the screens' visualFields MD", () => {
    const a = analyse({ thresholds: normalField(Pattern.P24_2).map((v, i) => (v === null ? null : v - (i % 3) * 4)) });
    expect(a.stages.gss2).toMatchObject({ md: a.normative!.humphrey.md, psd: a.normative!.humphrey.psd });
    expect(a.stages.hodapp.applicable && a.stages.hodapp.criteria[0]!.value).toBe(a.normative!.humphrey.md);
  });

  it("property: the left eye with the same values in index order (its mirror image) has the same stages", () => {
    fc.assert(
      fc.property(field24, (thresholds) => {
        const right = analyse({ thresholds, eye: Eye.Right }).stages;
        const left = analyse({ thresholds, eye: Eye.Left }).stages;
        expect(JSON.stringify(left)).toBe(JSON.stringify(right));
      }),
      { numRuns: 50 },
    );
  });

  it("property: lower thresholds never lower the CIGTS score (TD probabilities only deepen)", () => {
    fc.assert(
      fc.property(field24, field24, (a, b) => {
        const deeper = a.map((v, i) => (v === null ? null : Math.min(v, b[i]!)));
        const before = analyse({ thresholds: a }).stages.cigts;
        const after = analyse({ thresholds: deeper }).stages.cigts;
        expect(after.applicable && before.applicable && after.score >= before.score).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("property: a diffuse loss (every threshold lower by the same dB) never lowers the HPA stage", () => {
    fc.assert(
      fc.property(
        field24.map((v) => v.map((x) => (x === null ? null : x + 10))),
        fc.integer({ min: 1, max: 10 }),
        (a, loss) => {
          const rank = (t: Array<number | null>) => {
            const s = analyse({ thresholds: t }).stages.hodapp;
            return s.applicable ? HODAPP_STAGES.indexOf(s.stage) : -1;
          };
          expect(rank(a.map((x) => (x === null ? null : x - loss)))).toBeGreaterThanOrEqual(rank(a));
        },
      ),
      { numRuns: 50 },
    );
  });

  it("not applicable, with the reason: 10-2, G, screenings and Esterman; a screening strategy; a missing location; no normative database", () => {
    const flat = (p: Pattern) => getPattern(p).points.map(() => 25);
    for (const pattern of [Pattern.P10_2, Pattern.G, Pattern.S28, Pattern.C40, Pattern.Esterman])
      expect(reasons(analyse({ pattern, thresholds: flat(pattern) }).stages)).toEqual(["pattern", "pattern", "pattern", "pattern"]);
    const normal24 = normalField(Pattern.P24_2);
    expect(reasons(analyse({ thresholds: normal24, strategy: Strategy.Supra }).stages)).toEqual(Array(4).fill("screening"));
    expect(reasons(analyse({ thresholds: normal24, strategy: Strategy.SORS }).stages)).toEqual(Array(4).fill("applicable"));
    const holed = normal24.slice();
    holed[10] = null;
    expect(reasons(analyse({ thresholds: holed }).stages)).toEqual(Array(4).fill("missing-locations"));
    const thirty = normalField(Pattern.P30_2);
    expect(reasons(analyse({ pattern: Pattern.P30_2, thresholds: thirty, normativeVersion: DEFAULT_NORMATIVE_VERSION }).stages)).toEqual(
      Array(4).fill("no-normative-database"),
    );
  });

  it("worked out once, on first read; JSON carries all four outcomes", () => {
    const a = analyse({ thresholds: normalField(Pattern.P24_2) });
    expect(a.stages.agis).toBe(a.stages.agis);
    expect(Object.keys(JSON.parse(JSON.stringify(a)).stages)).toEqual(["hodapp", "gss2", "agis", "cigts"]);
  });
});
