import { getPattern } from "../../../core/analytics/patterns.ts";
import { Showtime, StimuliUpdate, StimulusSize } from "../../../core/model/enums.ts";
import { isSorsStrategy } from "../../../core/rules/pattern-options.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { PerimetryTest, runToEnd, type PerimetryTestSpec } from "../../perimetry/engine.ts";
import { createPatient } from "../../perimetry/patient.ts";
import { PROFILES, type PatientProfile } from "../../perimetry/profiles.ts";
import { createRng } from "../../perimetry/random.ts";
import { toMeasurementResult } from "../../perimetry/result.ts";
import { birthdateOf, defectAt, type DemoResultInput } from "./results.ts";

// Demo results run by the simulator's perimetry engine: a simulated patient whose true field follows the demo course
// (the same eye keeps the same field noise from visit to visit, its loss deepening with the years) sits a real test
// procedure. Where a normative database exists (24-2, 10-2) the result is scored against it at the patient's age in
// completed years (toMeasurementResult with the birthdate), so it can be a progression baseline and its stored MD is
// the one the result page recomputes; elsewhere it keeps the headset's own hill-of-vision scoring.

export const engineResult = (i: DemoResultInput): MeasurementResult => {
  const geometry = getPattern(i.pattern);
  const base = PROFILES[i.course === "healthy" ? "healthy" : "early"];
  const profile: PatientProfile = {
    ...base,
    age: i.ageYears,
    loss: (points) => points.map((p) => defectAt(i.course, p.x, p.y, i.yearsIntoCourse)),
  };
  const patient = createPatient(profile, {
    geometry,
    eye: i.eye,
    rng: createRng(`demo-field/${i.patientId}/${i.eye}`),
    responseRng: createRng(`demo-visit/${i.seed}`),
  });
  const spec: PerimetryTestSpec = {
    pattern: i.pattern,
    eye: i.eye,
    strategy: i.strategy,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliShowtime: Showtime.Ms200,
    // "Choosing strategy SORS or SORS screening forces size III adaptive" (scheduling seed §5).
    stimulusSize: isSorsStrategy(i.strategy) ? StimulusSize.III_ADAPTIVE : StimulusSize.III,
    trackGaze: true,
  };
  const outcome = runToEnd(new PerimetryTest(spec, patient, createRng(`demo-test/${i.seed}`)));
  return toMeasurementResult(outcome, spec, {
    measurementId: i.measurementId,
    patientId: i.patientId,
    takenAt: i.takenAt,
    deviceAlias: i.deviceAlias,
    gazeCalibration: true,
    patientBirthdate: birthdateOf(i),
  });
};
