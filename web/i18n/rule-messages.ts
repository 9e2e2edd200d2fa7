import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { MessageKey, RuleMessage } from "../../core/rules/messages.ts";

// core/rules answers with stable keys and English text; the web shows the translation of the key.
export const ruleMessageDescriptors: Record<MessageKey, MessageDescriptor> = {
  required: msg`This field is required.`,
  specialCharacters: msg`Special characters are not allowed.`,
  notesTooLong: msg`Notes can be at most 256 characters.`,
  passwordLength: msg`Password must be 8 to 99 characters long.`,
  passwordUppercase: msg`Password needs an uppercase letter.`,
  passwordLowercase: msg`Password needs a lowercase letter.`,
  passwordDigit: msg`Password needs a digit.`,
  passwordSpecial: msg`Password needs a special character.`,
  passwordWhitespace: msg`Password must not contain spaces.`,
  passwordsDiffer: msg`Passwords do not match.`,
  emailInvalid: msg`Enter a valid e-mail address.`,
  emailsDiffer: msg`E-mail addresses do not match.`,
  birthdateInvalid: msg`Enter a valid date.`,
  birthdateTooEarly: msg`Birthdate cannot be more than 99 years ago.`,
  birthdateTooLate: msg`Birthdate cannot be more than 366 days ahead.`,
  optionNotAllowed: msg`This option is not available here.`,
  tutorialUnavailable: msg`The tutorial needs the audio guide, gaze tracking and a patient whose language is English.`,
};

export const ruleDescriptor = (message: RuleMessage | undefined): MessageDescriptor | undefined =>
  message ? ruleMessageDescriptors[message.key] : undefined;
