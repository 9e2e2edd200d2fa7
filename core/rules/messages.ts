// Validation outcomes carry a stable key (the web translates it) plus the English text of the seeds.
// Texts quoted from the seeds are marked "seed"; the others are our wording where the seeds give none.

export const ruleMessages = {
  /** seed: scheduling §5, accounts §5 */
  required: "This field is required.",
  /** seed: accounts §5 "Special characters are not allowed." */
  specialCharacters: "Special characters are not allowed.",
  notesTooLong: "Notes can be at most 256 characters.",
  passwordLength: "Password must be 8 to 99 characters long.",
  passwordUppercase: "Password needs an uppercase letter.",
  passwordLowercase: "Password needs a lowercase letter.",
  passwordDigit: "Password needs a digit.",
  passwordSpecial: "Password needs a special character.",
  passwordWhitespace: "Password must not contain spaces.",
  passwordsDiffer: "Passwords do not match.",
  emailInvalid: "Enter a valid e-mail address.",
  emailsDiffer: "E-mail addresses do not match.",
  birthdateInvalid: "Enter a valid date.",
  birthdateTooEarly: "Birthdate cannot be more than 99 years ago.",
  birthdateTooLate: "Birthdate cannot be more than 366 days ahead.",
  optionNotAllowed: "This option is not available here.",
  tutorialUnavailable: "The tutorial needs the audio guide, gaze tracking and a patient whose language is English.",
} as const;

export type MessageKey = keyof typeof ruleMessages;

export interface RuleMessage {
  readonly key: MessageKey;
  /** English text; the web shows its translation of `key`. */
  readonly text: string;
}

export const message = (key: MessageKey): RuleMessage => ({ key, text: ruleMessages[key] });

/** Field name -> first failing message; an empty object means valid. */
export type FieldErrors<F extends string> = Partial<Record<F, RuleMessage>>;
