import { message, type FieldErrors } from "./messages.ts";

/**
 * Accounts seed §5: "Reset request: e-mail valid and typed twice with equal values; required; trimmed."
 * The seed's e-mail pattern is "not shown"; ours (our design): something@domain.tld without spaces.
 */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

export const isValidEmail = (email: string): boolean => emailPattern.test(email.trim());

export interface EmailTwice {
  readonly email: string;
  readonly confirmation: string;
}

export const validateEmailTwice = (form: EmailTwice): FieldErrors<"email" | "confirmation"> => {
  const email = form.email.trim();
  const confirmation = form.confirmation.trim();
  const errors: FieldErrors<"email" | "confirmation"> = {};
  if (email === "") errors.email = message("required");
  else if (!isValidEmail(email)) errors.email = message("emailInvalid");
  if (confirmation === "") errors.confirmation = message("required");
  else if (confirmation !== email) errors.confirmation = message("emailsDiffer");
  return errors;
};

/** The trimmed e-mail to send, or undefined while the form has errors. */
export const emailToSend = (form: EmailTwice): string | undefined =>
  Object.keys(validateEmailTwice(form)).length === 0 ? form.email.trim() : undefined;
