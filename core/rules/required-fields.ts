import { Pattern, Strategy } from "../model/enums.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import { configViolations } from "./allowed-config.ts";
import type { ConfigContext } from "./form-context.ts";
import { message, type FieldErrors } from "./messages.ts";
import { validateNotes } from "./notes.ts";
import { validateTextInput } from "./text-input.ts";

/** "Patient, eye, pattern, strategy, update, size and showtime are required" (scheduling seed §5). */
export const requiredMeasurementFields = [
  "patientId",
  "eye",
  "pattern",
  "strategy",
  "stimuliUpdate",
  "stimuliSize",
  "stimuliShowtime",
] as const satisfies ReadonlyArray<keyof MeasurementConfig>;

/** A form draft: any field may still be unset. */
export type MeasurementDraft = { readonly [F in keyof MeasurementConfig]?: MeasurementConfig[F] | null };

/** Undefined pattern and strategy (code 0) count as not chosen. */
const isUnset = (field: keyof MeasurementConfig, value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (field === "pattern" && value === Pattern.Undefined) ||
  (field === "strategy" && value === Strategy.Undefined);

/** Required fields that are unset, each with 'This field is required.' */
export const missingMeasurementFields = (draft: MeasurementDraft): FieldErrors<keyof MeasurementConfig> =>
  Object.fromEntries(requiredMeasurementFields.filter((f) => isUnset(f, draft[f])).map((f) => [f, message("required")]));

/**
 * Every error the measurement form shows: required fields, the text rule on the display name, the notes limit, and
 * any option the rules refuse in this context.
 */
export const validateMeasurementConfig = (config: MeasurementConfig, context: ConfigContext): FieldErrors<keyof MeasurementConfig> => {
  const errors: FieldErrors<keyof MeasurementConfig> = {};
  for (const field of configViolations(config, context)) errors[field] = message(field === "notes" ? "notesTooLong" : "optionNotAllowed");
  const name = validateTextInput(config.displayName);
  if (name) errors.displayName = name;
  const notes = validateNotes(config.notes);
  if (notes) errors.notes = notes;
  return { ...errors, ...missingMeasurementFields(config) };
};

/** "save is disabled without a patient" (scheduling seed §5), and with any other error. */
export const canSaveMeasurement = (config: MeasurementConfig, context: ConfigContext): boolean =>
  config.patientId !== null && config.patientId.trim() !== "" && Object.keys(validateMeasurementConfig(config, context)).length === 0;
