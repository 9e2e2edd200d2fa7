import { describe, expect, it } from "vitest";
import { Result } from "effect";
import { decode } from "../../core/model/decode.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { MeasurementResultSchema } from "../../core/model/measurement-result.ts";
import { DEFAULT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { engineResult } from "../../simulator/server/demo/engine-results.ts";
import { demoResult, type DemoResultInput } from "../../simulator/server/demo/results.ts";
import { generatedPassword } from "../../simulator/server/demo/seed.ts";
import { isStrongPassword } from "../../core/rules/password.ts";

// The demo clinic's result histories (issue #4 item 7): run by the perimetry engine (or the closed-form fixtures the
// tests seed with), valid against the model, scored against the normative database where one exists, and getting
// worse over the years for a glaucoma course.

const input = (over: Partial<DemoResultInput>): DemoResultInput => ({
  measurementId: "m1",
  patientId: "p1",
  takenAt: "2025-03-01T10:00:00.000Z",
  ageYears: 66,
  yearsIntoCourse: 0,
  course: "early-glaucoma",
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  deviceAlias: "Room 1",
  seed: 1,
  ...over,
});

describe("demo results", () => {
  for (const [label, make] of [["engine", engineResult], ["fixtures", demoResult]] as const) {
    it(`${label}: every result decodes as a MeasurementResult; 24-2 is scored with the default normative database`, () => {
      for (const pattern of [Pattern.P24_2, Pattern.G])
        for (const eye of [Eye.Right, Eye.Left]) {
          const r = make(input({ pattern, eye }));
          expect(Result.isSuccess(decode(MeasurementResultSchema, r))).toBe(true);
          expect(r.thresholds.length).toBe(r.defects.length);
          if (pattern === Pattern.P24_2) expect(r.normativeVersion).toBe(DEFAULT_NORMATIVE_VERSION);
        }
    });

    it(`${label}: a glaucoma course loses sensitivity over the years (mean defect after 5 years above the first visit's)`, () => {
      const first = make(input({ yearsIntoCourse: 0, seed: 11 }));
      const later = make(input({ yearsIntoCourse: 5, seed: 12 }));
      expect(later.meanDefect!).toBeGreaterThan(first.meanDefect! + 2);
      const healthy = make(input({ course: "healthy", seed: 13 }));
      expect(Math.abs(healthy.meanDefect!)).toBeLessThan(first.meanDefect! + 1);
    });
  }

  it("a generated demo password satisfies the password policy (accounts §5)", () => {
    for (let i = 0; i < 20; i++) expect(isStrongPassword(generatedPassword())).toBe(true);
  });
});
