import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Eye } from "../../core/model/enums.ts";
import { type Cohort, DEFAULT_FOLLOW_UP, HEIJL_BENGTSSON_1996_LEARNING_DB, cohortById } from "../../simulator/perimetry/cohorts/cohorts.ts";
import { variabilityThrough } from "../../simulator/perimetry/cohorts/observer.ts";
import { simulateSeries } from "../../simulator/perimetry/cohorts/simulate.ts";
import { COHORT_PATTERN, cohortEye, patientAtVisit, visitYears } from "../../simulator/perimetry/cohorts/true-field.ts";
import { HENSON, hensonSigma } from "../../simulator/perimetry/fos.ts";
import { HILL } from "../../simulator/perimetry/hill.ts";

// The cohort generator of npm run bench:progression (simulator/perimetry/cohorts).

const followUp = { ...DEFAULT_FOLLOW_UP, visits: 3 };
const geometry = getPattern(COHORT_PATTERN);
const truthAt = (cohort: Cohort, index: number, k: number) =>
  patientAtVisit(cohort, cohortEye(DEFAULT_FOLLOW_UP, index), DEFAULT_FOLLOW_UP, k, HENSON.glaucoma).trueThresholds;
/** The normal hill's own change between visit 0 and visit k (hill.ts: linear in age, the same at every location). */
const ageing = (k: number) => HILL.agePerYear * visitYears(DEFAULT_FOLLOW_UP, k);
const cohortWith = (kind: Cohort["kind"], rateDbPerYear: number, learningDb = 0): Cohort => ({
  id: "test",
  kind,
  rateDbPerYear,
  fpr: 0.03,
  fnr: 0.02,
  learningDb,
});

describe("cohorts", () => {
  it("is seeded: the same seed gives the same eyes, fields and answers; another seed other ones", () => {
    const a = simulateSeries(cohortById("diffuse-1"), 3, followUp, HENSON.glaucoma);
    const b = simulateSeries(cohortById("diffuse-1"), 3, followUp, HENSON.glaucoma);
    expect(b).toEqual(a);
    const c = simulateSeries(cohortById("diffuse-1"), 3, { ...followUp, seed: "another" }, HENSON.glaucoma);
    expect(c.truth[0]).not.toEqual(a.truth[0]);
    expect(c.visits[0]!.thresholds).not.toEqual(a.visits[0]!.thresholds);
  });

  it("follows every visit six months apart, both eyes of each patient at the same age", () => {
    const series = simulateSeries(cohortById("stable"), 0, followUp, HENSON.glaucoma);
    expect(series.visits.map((v) => v.date)).toEqual(["2020-01-06", "2020-07-07", "2021-01-05"]);
    expect(series.visits[1]!.age - series.visits[0]!.age).toBeCloseTo(0.5, 2);
    expect(series.visits[0]!.thresholds).toHaveLength(geometry.points.length);
    const [right, left] = [cohortEye(followUp, 6), cohortEye(followUp, 7)];
    expect([right.eye, left.eye]).toEqual([Eye.Right, Eye.Left]);
    expect(left.ageAtBaseline).toBe(right.ageAtBaseline);
  });

  it("keeps a stable eye's true field: it changes only by the normal hill's ageing, the same at every location", () => {
    for (const id of ["stable", "stable-false-answers"]) {
      const first = truthAt(cohortById(id), 5, 0);
      for (const k of [1, 4, 10]) truthAt(cohortById(id), 5, k).forEach((t, i) => expect(t - first[i]!).toBeCloseTo(ageing(k), 9));
    }
  });

  it("applies the set rate: diffuse loss at every location, localised loss on the cluster only", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: -5, max: -0.1, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        (index, rate, k) => {
          const years = visitYears(DEFAULT_FOLLOW_UP, k);
          const diffuse = cohortWith("diffuse", rate);
          const d0 = truthAt(diffuse, index, 0);
          truthAt(diffuse, index, k).forEach((t, i) => expect(t - d0[i]!).toBeCloseTo(ageing(k) + rate * years, 9));
          const localised = cohortWith("localised", rate);
          const cluster = new Set(cohortEye(DEFAULT_FOLLOW_UP, index).cluster);
          const l0 = truthAt(localised, index, 0);
          truthAt(localised, index, k).forEach((t, i) =>
            expect(t - l0[i]!).toBeCloseTo(ageing(k) + (cluster.has(i) ? rate * years : 0), 9),
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it("puts the localised cluster in the eye's more damaged hemifield: 13 arcuate and nasal-step locations, never across the meridian", () => {
    for (let index = 0; index < 40; index++) {
      const eye = cohortEye(DEFAULT_FOLLOW_UP, index);
      expect(eye.cluster).toHaveLength(13);
      const superior = geometry.points[eye.cluster[0]!]!.y > 0;
      expect(eye.cluster.every((i) => geometry.points[i]!.y > 0 === superior)).toBe(true);
      const loss = (sup: boolean) => eye.baselineDefect.reduce((s, d, i) => s + (geometry.points[i]!.y > 0 === sup ? d : 0), 0);
      expect(loss(superior)).toBeGreaterThanOrEqual(loss(!superior));
    }
  });

  it("lowers the first visit by the learning effect (Heijl & Bengtsson 1996: 2.81 dB on average), more peripherally, and no later one", () => {
    const learning = cohortById("stable-learning");
    const stable = cohortById("stable");
    const drop = truthAt(stable, 2, 0).map((t, i) => t - truthAt(learning, 2, 0)[i]!);
    expect(drop.reduce((s, d) => s + d, 0) / drop.length).toBeCloseTo(HEIJL_BENGTSSON_1996_LEARNING_DB, 9);
    expect(drop.every((d) => d > 0)).toBe(true);
    const ecc = geometry.points.map((p) => Math.hypot(p.x, p.y));
    const [central, peripheral] = [ecc.indexOf(Math.min(...ecc)), ecc.indexOf(Math.max(...ecc))];
    expect(drop[peripheral]!).toBeGreaterThan(drop[central]!);
    for (const k of [1, 2]) expect(truthAt(learning, 2, k)).toEqual(truthAt(stable, 2, k));
    // Measured, the first visit reads lower than the second on average.
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const measured = [0, 1, 2, 3].map((i) => simulateSeries(learning, i, { ...followUp, visits: 2 }, HENSON.glaucoma));
    const firstMinusSecond = mean(measured.map((s) => mean(s.visits[0]!.thresholds) - mean(s.visits[1]!.thresholds)));
    expect(firstMinusSecond).toBeLessThan(-1.5);
  });

  it("calibrates the observer in Henson's form through its psychometric SDs at 30 and 25 dB", () => {
    const v = variabilityThrough(1.6, 2.8);
    expect(hensonSigma(30, v)).toBeCloseTo(1.6, 9);
    expect(hensonSigma(25, v)).toBeCloseTo(2.8, 9);
    expect(hensonSigma(0, v)).toBe(6);
  });
});
