import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import {
  INTEGRATED_FIELD_PATTERNS,
  byEye,
  disabilityScore,
  integratedField,
  sameVisitFellow,
  type IntegratedField,
  type MonocularField,
} from "../../core/analytics/binocular.ts";

// Nelson-Quigg, Cello & Johnson, IOVS 2000 ("best location": "the highest sensitivity between eyes at each visual
// field location"); Crabb & Viswanathan, Graefe's Arch 2005 (the integrated visual field and "a related score of the
// number of defects at the <10 dB and <20 dB level"). Neither abstract gives a worked example with numbers; the
// example below is built by hand from the definitions.

const day = "2024-05-06T09:15:00.000Z";
const field = (eye: Eye, thresholds: ReadonlyArray<number | null>, pattern: Pattern = Pattern.P24_2, takenAt = day): MonocularField => ({
  eye,
  pattern,
  strategy: Strategy.DS,
  thresholds,
  takenAt,
});
const size = (p: Pattern) => getPattern(p).points.length;
const applicable = (out: ReturnType<typeof integratedField>): IntegratedField => {
  if (!out.applicable) throw new Error(out.reason);
  return out;
};
const indexAt = (p: Pattern, x: number, y: number) => getPattern(p).points.findIndex((q) => q.x === x && q.y === y);
const pattern = fc.constantFrom(...INTEGRATED_FIELD_PATTERNS);
const values = (p: Pattern) => fc.array(fc.integer({ min: -1, max: 38 }), { minLength: size(p), maxLength: size(p) });
const pair = pattern.chain((p) => fc.tuple(fc.constant(p), values(p), values(p)));

describe("integrated visual field (best location)", () => {
  it("a hand example: each place takes the better eye; the blind spots come from the fellow eye", () => {
    const right = new Array<number>(54).fill(30);
    const left = new Array<number>(54).fill(28);
    right[indexAt(Pattern.P24_2, -3, 3)] = 5; // right eye dense defect just left of fixation ...
    left[indexAt(Pattern.P24_2, 3, 3)] = 12; // ... the left eye's location at the same place (mirror index) is 12 dB
    right[indexAt(Pattern.P24_2, 3, 3)] = 22; // ... and where the left eye is 28, the right is worse: left gives
    right[25] = 0; // right blind spot, visual (15, 3): not counted even though the left eye gives less there
    left[indexAt(Pattern.P24_2, -15, 3)] = 26; // the left eye's (15, 3) in visual space
    const ivf = applicable(integratedField(field(Eye.Right, right), field(Eye.Left, left)));
    const at = (x: number, y: number) => ivf.points.find((p) => p.x === x && p.y === y)!;
    expect(at(-3, 3)).toMatchObject({ sensitivity: 12, source: "left", right: 5, left: 12 });
    expect(at(3, 3)).toMatchObject({ sensitivity: 28, source: "left", right: 22, left: 28 });
    expect(at(15, 3)).toMatchObject({ sensitivity: 26, source: "left", right: null, left: 26 });
    expect(at(-15, 3)).toMatchObject({ sensitivity: 30, source: "right", right: 30, left: null });
    expect(at(9, 9)).toMatchObject({ sensitivity: 30, source: "right" });
    // 52 places both 24-2 fields test; the nasal-step points at 27 degrees are tested by one eye only and left out.
    expect(ivf.points).toHaveLength(52);
    expect(ivf.points.some((p) => Math.abs(p.x) === 27)).toBe(false);
    // One point below 20 dB (12 dB), none below 10 dB.
    expect(ivf.disability).toEqual({ score: 1, max: 104, dense: 0, relative: 1 });
  });

  it("'a related score of the number of defects at the <10 dB and <20 dB level': 0, 1 or 2 a point", () => {
    expect(disabilityScore([30, 20, 19.9, 10, 9.9, -1])).toEqual({ score: 2 + 2 + 1 + 1, max: 12, dense: 2, relative: 4 });
  });

  it("30-2 and 10-2 pair every location (76 and 68 points); G, screenings and Esterman are not applicable", () => {
    for (const [p, n] of [
      [Pattern.P30_2, 76],
      [Pattern.P10_2, 68],
    ] as const) {
      const full = new Array<number>(size(p)).fill(30);
      expect(applicable(integratedField(field(Eye.Right, full, p), field(Eye.Left, full, p))).points).toHaveLength(n);
    }
    const g = new Array<number>(size(Pattern.G)).fill(30);
    expect(integratedField(field(Eye.Right, g, Pattern.G), field(Eye.Left, g, Pattern.G))).toEqual({
      applicable: false,
      reason: "pattern",
    });
    const full = new Array<number>(54).fill(30);
    const supra = { ...field(Eye.Left, full), strategy: Strategy.Supra };
    expect(integratedField(field(Eye.Right, full), supra)).toEqual({ applicable: false, reason: "screening" });
  });

  it("not applicable, with the reason: wrong eyes, another day, different patterns, a missing location", () => {
    const full = new Array<number>(54).fill(30);
    const reason = (out: ReturnType<typeof integratedField>) => (out.applicable ? null : out.reason);
    expect(reason(integratedField(field(Eye.Left, full), field(Eye.Left, full)))).toBe("eyes");
    expect(reason(integratedField(field(Eye.Right, full), field(Eye.Left, full, Pattern.P24_2, "2024-05-07T09:15:00.000Z")))).toBe(
      "not-same-day",
    );
    const thirty = new Array<number>(76).fill(30);
    expect(reason(integratedField(field(Eye.Right, full), field(Eye.Left, thirty, Pattern.P30_2)))).toBe("different-patterns");
    const gap = [...full.slice(0, 53), null];
    expect(reason(integratedField(field(Eye.Right, full), field(Eye.Left, gap)))).toBe("incomplete");
    expect(reason(integratedField(field(Eye.Right, full.slice(1)), field(Eye.Left, full)))).toBe("incomplete");
  });

  it("the calendar day is the clinic's: 23:30 and 00:30 UTC are one day in New York, two in UTC", () => {
    const full = new Array<number>(54).fill(30);
    const late = field(Eye.Right, full, Pattern.P24_2, "2024-05-06T23:30:00.000Z");
    const early = field(Eye.Left, full, Pattern.P24_2, "2024-05-07T00:30:00.000Z");
    expect(integratedField(late, early).applicable).toBe(false);
    expect(integratedField(late, early, "America/New_York").applicable).toBe(true);
  });

  it("property: the IVF at each place is at least each eye's value there and equals one of them (best location)", () => {
    fc.assert(
      fc.property(pair, ([p, r, l]) => {
        const ivf = applicable(integratedField(field(Eye.Right, r, p), field(Eye.Left, l, p)));
        const rightAt = new Map(pointsForEye(getPattern(p), Eye.Right).map((q, i) => [`${q.x},${q.y}`, i]));
        const leftAt = new Map(pointsForEye(getPattern(p), Eye.Left).map((q, i) => [`${q.x},${q.y}`, i]));
        const blind = getPattern(p).blindSpotIndices;
        for (const pt of ivf.points) {
          const i = rightAt.get(`${pt.x},${pt.y}`)!;
          const j = leftAt.get(`${pt.x},${pt.y}`)!;
          if (!blind.includes(i)) expect(pt.sensitivity).toBeGreaterThanOrEqual(r[i]!);
          if (!blind.includes(j)) expect(pt.sensitivity).toBeGreaterThanOrEqual(l[j]!);
          expect([pt.right, pt.left]).toContain(pt.sensitivity);
          expect(pt.source === "both" ? pt.right === pt.left : pt[pt.source] === pt.sensitivity).toBe(true);
        }
      }),
    );
  });

  it("property: swapping the eyes mirrors the IVF (x -> -x, right <-> left) and keeps the score", () => {
    const swapped = { right: "left", left: "right", both: "both" } as const;
    fc.assert(
      fc.property(pair, ([p, a, b]) => {
        const one = applicable(integratedField(field(Eye.Right, a, p), field(Eye.Left, b, p)));
        const two = applicable(integratedField(field(Eye.Right, b, p), field(Eye.Left, a, p)));
        expect(two.disability).toEqual(one.disability);
        const mirrored = one.points
          .map((q) => ({ x: q.x === 0 ? 0 : -q.x, y: q.y, sensitivity: q.sensitivity, source: swapped[q.source] }))
          .sort((s, t) => t.y - s.y || s.x - t.x);
        expect(two.points.map(({ x, y, sensitivity, source }) => ({ x, y, sensitivity, source }))).toEqual(mirrored);
      }),
    );
  });

  it("property: the disability score never falls as either eye loses sensitivity, and a healthy pair scores 0", () => {
    const damage = pair.chain(([p, r, l]) =>
      fc.tuple(fc.constant([p, r, l] as const), fc.array(fc.tuple(fc.boolean(), fc.nat(size(p) - 1), fc.integer({ min: 1, max: 30 })))),
    );
    fc.assert(
      fc.property(damage, ([[p, r, l], losses]) => {
        const before = applicable(integratedField(field(Eye.Right, r, p), field(Eye.Left, l, p))).disability.score;
        const r2 = [...r];
        const l2 = [...l];
        for (const [right, i, dB] of losses) (right ? r2 : l2)[i] = Math.max(-1, (right ? r2 : l2)[i]! - dB);
        const after = applicable(integratedField(field(Eye.Right, r2, p), field(Eye.Left, l2, p))).disability.score;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
    const healthy = pattern.chain((p) =>
      fc.tuple(fc.constant(p), ...[0, 1].map(() => fc.array(fc.integer({ min: 20, max: 36 }), { minLength: size(p), maxLength: size(p) }))),
    );
    fc.assert(
      fc.property(healthy, ([p, r, l]) => {
        // Healthy sensitivities except the blind spots (0 dB, as the demo and many devices store them).
        const withBlind = (xs: number[]) => xs.map((v, i) => (getPattern(p).blindSpotIndices.includes(i) ? 0 : v));
        const ivf = applicable(integratedField(field(Eye.Right, withBlind(r!), p), field(Eye.Left, withBlind(l!), p)));
        expect(ivf.disability.score).toBe(0);
      }),
    );
  });
});

describe("the fellow eye of the visit", () => {
  const result = (id: string, eye: Eye, pattern: Pattern, takenAt: string) => ({ id, eye, pattern, takenAt });
  const current = result("r", Eye.Right, Pattern.P24_2, "2024-05-06T09:00:00.000Z");

  it("the other eye the same day, the same pattern before another, then the nearest in time", () => {
    const list = [
      current,
      result("other-day", Eye.Left, Pattern.P24_2, "2024-05-05T09:05:00.000Z"),
      result("ten-two", Eye.Left, Pattern.P10_2, "2024-05-06T09:01:00.000Z"),
      result("late", Eye.Left, Pattern.P24_2, "2024-05-06T16:00:00.000Z"),
      result("soon", Eye.Left, Pattern.P24_2, "2024-05-06T09:10:00.000Z"),
      result("right-again", Eye.Right, Pattern.P24_2, "2024-05-06T09:20:00.000Z"),
    ];
    expect(sameVisitFellow(list, current)?.id).toBe("soon");
    expect(sameVisitFellow(list.slice(0, 3), current)?.id).toBe("ten-two");
    expect(sameVisitFellow(list.slice(0, 2), current)).toBeNull();
    expect(sameVisitFellow(list, { ...current, eye: Eye.Binocular })).toBeNull();
  });

  it("byEye orders a visit's two results right, left", () => {
    const left = result("l", Eye.Left, Pattern.P24_2, day);
    expect(byEye(left, current)).toEqual({ right: current, left });
    expect(byEye(current, left)).toEqual({ right: current, left });
  });
});
