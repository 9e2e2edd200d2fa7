import type { Language, Sex } from "../model/enums.ts";
import { validateBirthdate } from "./birthdate.ts";
import { message, type FieldErrors } from "./messages.ts";
import { validateTextInput } from "./text-input.ts";

/** A patient form draft; every field may still be unset. */
export interface PatientDraft {
  readonly name: string | null;
  readonly uniqueId: string | null;
  readonly gender: Sex | null;
  readonly lang: Language | null;
  /** ISO "YYYY-MM-DD" */
  readonly birthdate: string | null;
}

export interface PatientPayload {
  readonly name: string;
  readonly uniqueId: string;
  readonly gender: Sex;
  readonly lang: Language;
  readonly birthdate: string;
}

type PatientField = keyof PatientDraft;

const textField = (value: string | null) => {
  const trimmed = (value ?? "").trim();
  return trimmed === "" ? message("required") : validateTextInput(trimmed);
};

/**
 * "Patient form: name, uniqueId, gender, lang and birthdate all required. Birthdate no later than today plus 366 days
 * and no earlier than 99 years ago. Name and uniqueId trimmed before sending." (accounts seed §5); name and uniqueId
 * are text inputs, so the text rule applies to them.
 */
export const validatePatientForm = (draft: PatientDraft, today: string): FieldErrors<PatientField> => {
  const errors: FieldErrors<PatientField> = {};
  const name = textField(draft.name);
  if (name) errors.name = name;
  const uniqueId = textField(draft.uniqueId);
  if (uniqueId) errors.uniqueId = uniqueId;
  if (draft.gender === null) errors.gender = message("required");
  if (draft.lang === null) errors.lang = message("required");
  const birthdate = validateBirthdate(draft.birthdate, today);
  if (birthdate) errors.birthdate = birthdate;
  return errors;
};

/** The payload to send (name and uniqueId trimmed), or undefined while the form has errors. */
export const patientPayload = (draft: PatientDraft, today: string): PatientPayload | undefined =>
  Object.keys(validatePatientForm(draft, today)).length === 0
    ? { name: draft.name!.trim(), uniqueId: draft.uniqueId!.trim(), gender: draft.gender!, lang: draft.lang!, birthdate: draft.birthdate! }
    : undefined;
