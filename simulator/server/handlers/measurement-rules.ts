import { Eye } from "../../../core/model/enums.ts";
import type { Language } from "../../../core/model/enums.ts";
import type { MeasurementConfig } from "../../../core/model/measurement-config.ts";
import { configViolations } from "../../../core/rules/allowed-config.ts";
import type { FormMode } from "../../../core/rules/form-context.ts";
import { invalid } from "../http/failure.ts";

// The measurement form's rules, enforced again by the server (core/rules is the one place that knows them):
// options per pattern, size by strategy, eyes by mode ('Both' only when creating), SORS locations, tutorial, notes.

export const checkMeasurementConfig = (
  config: MeasurementConfig,
  mode: FormMode,
  patientLanguage: Language,
  multiTests: boolean,
  fieldName: (field: string) => string = (field) => `body.${field}`,
): void => {
  const bad = configViolations(config, { mode, variant: multiTests ? "newer" : "older", patientLanguage });
  const first = bad[0];
  if (first) throw invalid(fieldName(first), `the value is not allowed for pattern ${config.pattern} and strategy ${config.strategy}`);
};

/** 'Both' becomes a right and a left measurement (right runs first). */
export const eyesToCreate = (eye: MeasurementConfig["eye"]) => (eye === Eye.Both ? [Eye.Right, Eye.Left] : [eye]);
