import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../../core/model/enums.ts";
import { getPattern, statisticalIndices } from "../../../core/analytics/patterns.ts";
import { lutProbabilities, type ProbabilityLevel } from "../../../core/analytics/normative/tables.ts";
import { HODAPP_STAGES, hodappStage, type HodappInput, type HodappResult } from "../../../core/analytics/stages/hodapp-stage.ts";

const levels: readonly ProbabilityLevel[] = [...lutProbabilities, 1];
const geometry24 = getPattern(Pattern.P24_2);
const points24 = statisticalIndices(geometry24);
const central24 = points24.filter((i) => Math.abs(geometry24.points[i]!.x) === 3 && Math.abs(geometry24.points[i]!.y) === 3);
const at = (x: number, y: number) => geometry24.points.findIndex((p) => p.x === x && p.y === y);

/** A 24-2 field: sensitivities 30 dB, PD probabilities not significant, MD 0; blind spots null. */
function healthy(pattern: Pattern = Pattern.P24_2): { thresholds: Array<number | null>; pdp: Array<ProbabilityLevel | null> } {
  const g = getPattern(pattern);
  const blind = new Set(g.blindSpotIndices);
  return {
    thresholds: g.points.map((_, i) => (blind.has(i) ? null : 30)),
    pdp: g.points.map((_, i) => (blind.has(i) ? null : 1)),
  };
}
function stage(input: Partial<HodappInput> & Pick<HodappInput, "thresholds" | "pdp">): HodappResult {
  const out = hodappStage({ pattern: Pattern.P24_2, md: 0, ...input });
  if (!out.applicable) throw new Error(out.reason);
  return out;
}
/** The field with the first `n5` points (non-central) at p < 5 % and the first `n1` of them at p < 1 %. */
function withPd(n5: number, n1: number, pattern: Pattern = Pattern.P24_2) {
  const f = healthy(pattern);
  const g = getPattern(pattern);
  const outer = statisticalIndices(g).filter((i) => !(Math.abs(g.points[i]!.x) === 3 && Math.abs(g.points[i]!.y) === 3));
  outer.slice(0, n5).forEach((i, k) => {
    f.pdp[i] = k < n1 ? 0.01 : 0.05;
  });
  return f;
}

describe("Hodapp-Parrish-Anderson stage (Hodapp, Parrish & Anderson 1993)", () => {
  it("a healthy field is early, every criterion met, each with its measured value", () => {
    const s = stage(healthy());
    expect(s.stage).toBe("early");
    expect(s.points).toBe(52);
    expect(s.criteria.map((c) => [c.id, c.value])).toEqual([
      ["md", 0],
      ["pd-below-5", 0],
      ["pd-below-1", 0],
      ["central-below-15", 0],
      ["central-at-0", 0],
      ["central-below-15-hemifields", 0],
    ]);
    expect(s.criteria.every((c) => (c.early?.met ?? true) && (c.moderate?.met ?? true))).toBe(true);
  });

  it("'early: MD better than -6 dB; moderate: MD -6 to -12 dB; severe beyond' (at the border the worse stage)", () => {
    expect(stage({ ...healthy(), md: -5.99 }).stage).toBe("early");
    const six = stage({ ...healthy(), md: -6 });
    expect(six.stage).toBe("moderate");
    expect(six.criteria[0]).toEqual({
      id: "md",
      value: -6,
      early: { relation: "above", bound: -6, met: false },
      moderate: { relation: "at-least", bound: -12, met: true },
    });
    expect(stage({ ...healthy(), md: -12 }).stage).toBe("moderate");
    expect(stage({ ...healthy(), md: -12.01 }).stage).toBe("severe");
  });

  it("30-2: 'fewer than 18 points below 5 % and fewer than 10 below 1 %' early; 'fewer than 37 / 20' moderate (74 points)", () => {
    const p = Pattern.P30_2;
    expect(stage({ pattern: p, ...withPd(17, 9, p) })).toMatchObject({ stage: "early", points: 74 });
    expect(stage({ pattern: p, ...withPd(18, 0, p) }).stage).toBe("moderate");
    expect(stage({ pattern: p, ...withPd(17, 10, p) }).stage).toBe("moderate");
    expect(stage({ pattern: p, ...withPd(36, 19, p) }).stage).toBe("moderate");
    expect(stage({ pattern: p, ...withPd(37, 0, p) }).stage).toBe("severe");
    expect(stage({ pattern: p, ...withPd(30, 20, p) }).stage).toBe("severe");
  });

  it("24-2 (our choice): the counts scaled to 52 points, 13 and 7 early, 26 and 14 moderate", () => {
    expect(stage(withPd(12, 6)).stage).toBe("early");
    expect(stage(withPd(13, 0)).stage).toBe("moderate");
    expect(stage(withPd(12, 7)).stage).toBe("moderate");
    expect(stage(withPd(25, 13)).stage).toBe("moderate");
    expect(stage(withPd(26, 0)).stage).toBe("severe");
    expect(stage(withPd(20, 14)).stage).toBe("severe");
    const counted = stage(withPd(20, 14)).criteria[1]!;
    expect(counted).toMatchObject({ id: "pd-below-5", value: 20, early: { bound: 13, met: false }, moderate: { bound: 26, met: true } });
  });

  it("central 5 degrees: below 15 dB in one hemifield is moderate, in both or at 0 dB severe", () => {
    expect(central24.map((i) => [geometry24.points[i]!.x, geometry24.points[i]!.y])).toEqual([
      [-3, 3],
      [3, 3],
      [-3, -3],
      [3, -3],
    ]);
    const f = healthy();
    f.thresholds[at(-3, 3)] = 14;
    f.thresholds[at(3, 3)] = 10;
    expect(stage(f)).toMatchObject({ stage: "moderate" });
    expect(stage(f).criteria[3]).toMatchObject({ id: "central-below-15", value: 2, early: { met: false } });
    f.thresholds[at(3, -3)] = 14.9;
    expect(stage(f).stage).toBe("severe");
    expect(stage(f).criteria[5]).toMatchObject({ value: 2, moderate: { relation: "at-most", bound: 1, met: false } });
    const blind = healthy();
    blind.thresholds[at(-3, -3)] = -1; // '<0 dB', not seen at the brightest stimulus
    expect(stage(blind).stage).toBe("severe");
    blind.thresholds[at(-3, -3)] = 0;
    expect(stage(blind).criteria[4]).toMatchObject({ id: "central-at-0", value: 1, moderate: { met: false } });
  });

  const anyField = fc.record({
    md: fc.double({ min: -30, max: 3, noNaN: true }),
    pdp: fc.array(fc.constantFrom(...levels), { minLength: 52, maxLength: 52 }),
    central: fc.array(fc.integer({ min: -1, max: 35 }), { minLength: 4, maxLength: 4 }),
  });
  const build = (f: { md: number; pdp: readonly ProbabilityLevel[]; central: readonly number[] }) => {
    const h = healthy();
    points24.forEach((i, k) => {
      h.pdp[i] = f.pdp[k]!;
    });
    central24.forEach((i, k) => {
      h.thresholds[i] = f.central[k]!;
    });
    return { ...h, md: f.md };
  };
  const rank = (s: HodappResult) => HODAPP_STAGES.indexOf(s.stage);

  it("property: deeper loss (lower MD, lower PD probabilities, lower central sensitivities) never lowers the stage", () => {
    fc.assert(
      fc.property(anyField, anyField, (a, b) => {
        const deeper = {
          md: Math.min(a.md, b.md),
          pdp: a.pdp.map((l, k) => Math.min(l, b.pdp[k]!) as ProbabilityLevel),
          central: a.central.map((v, k) => Math.min(v, b.central[k]!)),
        };
        expect(rank(stage(build(deeper)))).toBeGreaterThanOrEqual(rank(stage(build(a))));
      }),
    );
  });

  it("property: swapping the hemifields gives the same stage and values (the definition is symmetric)", () => {
    const flip = geometry24.points.map((p) => at(p.x, -p.y));
    fc.assert(
      fc.property(anyField, (a) => {
        const f = build(a);
        const flipped = stage({ md: f.md, thresholds: flip.map((j) => f.thresholds[j]!), pdp: flip.map((j) => f.pdp[j]!) });
        const base = stage(f);
        expect(flipped.stage).toBe(base.stage);
        expect(flipped.criteria.map((c) => c.value)).toEqual(base.criteria.map((c) => c.value));
      }),
    );
  });

  it("is not applicable off 24-2 and 30-2, or with a point not measured", () => {
    const tenTwo = getPattern(Pattern.P10_2).points.map(() => 30);
    expect(hodappStage({ pattern: Pattern.P10_2, thresholds: tenTwo, pdp: tenTwo.map(() => 1), md: 0 })).toEqual({
      applicable: false,
      reason: "pattern",
    });
    const f = healthy();
    f.pdp[points24[9]!] = null;
    expect(hodappStage({ pattern: Pattern.P24_2, md: 0, ...f })).toEqual({ applicable: false, reason: "missing-locations" });
  });
});
