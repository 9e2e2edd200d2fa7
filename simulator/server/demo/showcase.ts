import {
  Eye,
  Pattern,
  Showtime,
  StimulusSize,
  Strategy,
  type Eye as EyeT,
  type Pattern as PatternT,
  type Strategy as StrategyT,
} from "../../../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../../../core/model/measurement.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import type { Queryable } from "../db/database.ts";
import { newId } from "../store/ids.ts";
import { insertMeasurement } from "../store/measurements.ts";
import type { DemoResultInput } from "./results.ts";

// One result of every strategy the simulator runs that the demo histories (Normal and Dynamic on 24-2 and G) lack:
// SORS, SORS screening, supra-threshold, one level on Esterman (binocular) and C40, and Dynamic on 30-2, so the result page can be
// seen, and tested end to end (e2e/results-strategies.spec.ts), for each. They sit a day apart, two years back, so the
// home page's recent tests stay the histories' latest visits.

export interface ShowcaseTest {
  readonly pattern: PatternT;
  readonly strategy: StrategyT;
  readonly eye: EyeT;
}

export const showcaseTests: readonly ShowcaseTest[] = [
  { pattern: Pattern.P24_2, strategy: Strategy.SORS, eye: Eye.Right },
  { pattern: Pattern.G, strategy: Strategy.SORS_screening, eye: Eye.Left },
  { pattern: Pattern.P24_2, strategy: Strategy.Supra, eye: Eye.Left },
  { pattern: Pattern.Esterman, strategy: Strategy.OneLevel, eye: Eye.Binocular },
  { pattern: Pattern.C40, strategy: Strategy.OneLevel, eye: Eye.Right },
  // A 30-2 threshold test, read with the full-field normals (issue 20).
  { pattern: Pattern.P30_2, strategy: Strategy.DS, eye: Eye.Left },
];

/** Which demo patient shows them (clinic.json order): Maria Rossi, an early-glaucoma course. */
export const SHOWCASE_PATIENT_INDEX = 2;

export const addShowcase = async (
  tx: Queryable,
  org: string,
  patientId: string,
  birthdate: string,
  now: Date,
  alias: string,
  result: (input: DemoResultInput) => MeasurementResult,
): Promise<void> => {
  for (const [k, t] of showcaseTests.entries()) {
    const takenAt = new Date(now.getTime() - (730 + k) * 86400_000);
    takenAt.setUTCHours(10, 15, 0, 0);
    const id = newId();
    const iso = takenAt.toISOString();
    // The form's defaults for the newer variant (seed §9), with this showcase's test and its size and showtime.
    const config = measurementConfigWith({
      patientId,
      deviceSn: null,
      displayName: `Showcase ${k + 1}`,
      eye: t.eye,
      pattern: t.pattern,
      strategy: t.strategy,
      stimuliSize: t.strategy === Strategy.SORS || t.strategy === Strategy.SORS_screening ? StimulusSize.III_ADAPTIVE : StimulusSize.III,
      stimuliShowtime: t.pattern === Pattern.Esterman ? Showtime.Ms500 : Showtime.Ms200,
    });
    const m: Measurement = {
      ...newMeasurement(config, id, new Date(takenAt.getTime() - 1800_000).toISOString()),
      result: result({
        measurementId: id,
        patientId,
        takenAt: iso,
        ageYears: (takenAt.getTime() - Date.parse(birthdate)) / (365.25 * 86400_000),
        birthdate,
        yearsIntoCourse: 1,
        course: "early-glaucoma",
        eye: t.eye,
        pattern: t.pattern,
        strategy: t.strategy,
        deviceAlias: alias,
        seed: 9000 + k,
      }),
      updatedAt: iso,
    };
    await insertMeasurement(tx, org, m, null);
  }
};
