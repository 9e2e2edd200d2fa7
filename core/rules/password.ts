import { message, type FieldErrors, type MessageKey, type RuleMessage } from "./messages.ts";

// Accounts seed §5: "The general input rule is 8 to 99 characters, no whitespace, with lowercase, uppercase, digit
// and special character." "the two must match". "Submit disabled if either field is empty or has an error. The
// change form also requires the old password." The general rule is the strictest reading and covers the others.

export const passwordLength = { min: 8, max: 99 } as const;

const checks: ReadonlyArray<readonly [MessageKey, (password: string) => boolean]> = [
  ["passwordLength", (p) => [...p].length >= passwordLength.min && [...p].length <= passwordLength.max],
  ["passwordWhitespace", (p) => !/\s/u.test(p)],
  ["passwordLowercase", (p) => /\p{Ll}/u.test(p)],
  ["passwordUppercase", (p) => /\p{Lu}/u.test(p)],
  ["passwordDigit", (p) => /\p{Nd}/u.test(p)],
  /** Special: anything that is not a letter, digit or whitespace. */
  ["passwordSpecial", (p) => /[^\p{L}\p{M}\p{Nd}\s]/u.test(p)],
];

/** Every part of the password policy the password misses, in a stable order (for a checklist). */
export const passwordProblems = (password: string): RuleMessage[] => checks.filter(([, ok]) => !ok(password)).map(([key]) => message(key));

export const isStrongPassword = (password: string): boolean => passwordProblems(password).length === 0;

/** "the two must match" */
export const passwordsMatch = (password: string, confirmation: string): boolean => password === confirmation;

export interface PasswordForm {
  readonly password: string;
  readonly confirmation: string;
  /** Only the change form has it; when present it is required. */
  readonly oldPassword?: string;
}

export const validatePasswordForm = (form: PasswordForm): FieldErrors<"password" | "confirmation" | "oldPassword"> => {
  const errors: FieldErrors<"password" | "confirmation" | "oldPassword"> = {};
  const problem = passwordProblems(form.password)[0];
  if (form.password === "") errors.password = message("required");
  else if (problem) errors.password = problem;
  if (form.confirmation === "") errors.confirmation = message("required");
  else if (!passwordsMatch(form.password, form.confirmation)) errors.confirmation = message("passwordsDiffer");
  if (form.oldPassword !== undefined && form.oldPassword === "") errors.oldPassword = message("required");
  return errors;
};

/** "Submit disabled if either field is empty or has an error." */
export const canSubmitPasswordForm = (form: PasswordForm): boolean => Object.keys(validatePasswordForm(form)).length === 0;
