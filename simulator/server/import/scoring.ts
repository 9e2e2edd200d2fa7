import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase, normativeVersions } from "../../../core/analytics/normative/registry.ts";
import { ageAtTest } from "../../../core/analytics/result-analysis.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { withStoredIndices } from "../../perimetry/result.ts";

// Isopter's own analysis beside the device's (issue 29: "Isopter's own analysis stands beside them wherever Isopter has
// normals for the pattern"): an imported field is scored like a headset's result, with the normative version its file
// named when Isopter knows it (its own exports), else the current one, at the patient's age on the test day. Where
// Isopter has no normals for the pattern, the result keeps no version and only the device's indices speak for it.
// The per-location normal values stay null: the analysis reads the tables themselves, and a blind-spot location has none.

export function scoredResult(r: MeasurementResult, birthdate: string): MeasurementResult {
  const version =
    r.normativeVersion !== null && normativeVersions.includes(r.normativeVersion) ? r.normativeVersion : CURRENT_NORMATIVE_VERSION;
  const normativeVersion = getNormativeDatabase(r.pattern, version) ? version : null;
  return withStoredIndices({ ...r, normValues: null, normativeVersion }, Math.max(0, ageAtTest(birthdate, r.takenAt)));
}
