import { describe, expect, it } from "vitest";
import {
  Eye,
  Pattern,
  Showtime,
  StimuliUpdate,
  Strategy,
  type Eye as EyeT,
  type Pattern as PatternT,
  type Strategy as StrategyT,
} from "../../../core/model/enums.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { createPerimetryTest, runToEnd } from "../../../simulator/perimetry/engine.ts";
import { toMeasurementResult } from "../../../simulator/perimetry/result.ts";
import { engineResult } from "../../../simulator/server/demo/engine-results.ts";
import { demoResult, type DemoResultInput } from "../../../simulator/server/demo/results.ts";
import { isScreening } from "../../../core/plots/screening.ts";
import { analyseStored } from "../../../web/results/result-model.ts";

// The measurement list prints a result's stored MS and MD; the result display prints them from core/analytics'
// analysis of the same result (analyseStored, the patient's age in completed years at the test). A demo result
// showed MD 2.50 in the list and 2.56 in the indices table: the demo scored its normals at the patient's fractional
// age. The stored indices must be the analysis' own, whatever path produced the result.

const birthdate = "1950-08-20";
const takenAt = "2024-03-10T10:00:00.000Z"; // 73.56 years after the birthdate: 73 completed years
const ageYears = (Date.parse(takenAt) - Date.parse(birthdate)) / (365.25 * 86400_000);

const input = (eye: EyeT, pattern: PatternT, strategy: StrategyT): DemoResultInput & { birthdate: string } => ({
  measurementId: "m1",
  patientId: "p1",
  takenAt,
  ageYears,
  yearsIntoCourse: 2,
  course: "early-glaucoma",
  eye,
  pattern,
  strategy,
  deviceAlias: "Room 1",
  seed: 7,
  birthdate,
});

function expectAgreement(stored: MeasurementResult) {
  const analysis = analyseStored(stored, birthdate);
  expect(analysis).not.toBeNull();
  const d = analysis!.display;
  // A screening (supra-threshold, one level) has no thresholds: no MD, sLV or VFI stored, and the page prints none.
  const screening = isScreening(stored.strategy);
  expect({ ms: Math.max(0, stored.meanSensitivity), md: stored.meanDefect, slv: stored.squareRootLossVariance, vfi: stored.vfi }).toEqual({
    ms: d.meanSensitivity ?? 0,
    md: screening ? null : d.meanDefect,
    slv: screening ? null : d.slv,
    vfi: screening ? null : d.vfi,
  });
}

describe("stored and recomputed indices agree", () => {
  for (const [label, make] of [
    ["engine", engineResult],
    ["fixtures", demoResult],
  ] as const)
    for (const pattern of [Pattern.P24_2, Pattern.G])
      for (const eye of [Eye.Right, Eye.Left])
        it(`demo (${label}) ${pattern === Pattern.G ? "G" : "24-2"} ${eye === Eye.Right ? "right" : "left"}: the list's MD is the indices table's MD`, () => {
          expectAgreement(make(input(eye, pattern, Strategy.DS)));
        });

  const runs: Array<[string, PatternT, StrategyT, EyeT]> = [
    ["Normal 24-2", Pattern.P24_2, Strategy.Normal, Eye.Right],
    ["SORS 24-2", Pattern.P24_2, Strategy.SORS, Eye.Left],
    ["Supra 30-2", Pattern.P30_2, Strategy.Supra, Eye.Right],
    ["1LT Esterman", Pattern.Esterman, Strategy.OneLevel, Eye.Binocular],
  ];
  for (const [label, pattern, strategy, eye] of runs)
    it(`a headset's ${label} result, given the patient's birthdate, stores the indices the page shows`, () => {
      const spec = { pattern, eye, strategy, stimuliUpdate: StimuliUpdate.Ms1000, stimuliShowtime: Showtime.Ms200 };
      const outcome = runToEnd(createPerimetryTest({ spec, profile: "early", seed: `stored/${label}`, age: ageYears }));
      const stored = toMeasurementResult(outcome, spec, {
        measurementId: "m",
        patientId: "p",
        takenAt,
        deviceAlias: null,
        gazeCalibration: true,
        patientBirthdate: birthdate,
      });
      expectAgreement(stored);
    });

  it("a 24-2 headset result with the patient's birthdate is scored with the normative database (it can be a baseline)", () => {
    const spec = {
      pattern: Pattern.P24_2,
      eye: Eye.Right,
      strategy: Strategy.DS,
      stimuliUpdate: StimuliUpdate.Ms1000,
      stimuliShowtime: Showtime.Ms200,
    };
    const outcome = runToEnd(createPerimetryTest({ spec, profile: "healthy", seed: "stored/norms", age: ageYears }));
    const withBirthdate = toMeasurementResult(outcome, spec, {
      measurementId: "m",
      patientId: "p",
      takenAt,
      deviceAlias: null,
      gazeCalibration: null,
      patientBirthdate: birthdate,
    });
    expect(analyseStored(withBirthdate, birthdate)?.normative).not.toBeNull();
    expect(withBirthdate.vfi).not.toBeNull();
  });
});
