import { addDays, addYears, compareIsoDates, formatIsoDate, parseIsoDate } from "./calendar-date.ts";
import { message, type RuleMessage } from "./messages.ts";

/** "Birthdate no later than today plus 366 days and no earlier than 99 years ago." (accounts seed §5) */
export const birthdateYearsBack = 99;
export const birthdateDaysAhead = 366;

/** The inclusive window of allowed birthdates for `today` (ISO date passed in: the rules never read a clock). */
export const birthdateWindow = (today: string): { readonly earliest: string; readonly latest: string } => {
  const date = parseIsoDate(today);
  if (date === undefined) throw new RangeError(`today must be an ISO date (YYYY-MM-DD), got '${today}'`);
  return { earliest: formatIsoDate(addYears(date, -birthdateYearsBack)), latest: formatIsoDate(addDays(date, birthdateDaysAhead)) };
};

/** Required, a real ISO date, and inside the window. */
export const validateBirthdate = (birthdate: string | null | undefined, today: string): RuleMessage | undefined => {
  if (birthdate === null || birthdate === undefined || birthdate.trim() === "") return message("required");
  if (parseIsoDate(birthdate) === undefined) return message("birthdateInvalid");
  const { earliest, latest } = birthdateWindow(today);
  if (compareIsoDates(birthdate, earliest) < 0) return message("birthdateTooEarly");
  if (compareIsoDates(birthdate, latest) > 0) return message("birthdateTooLate");
  return undefined;
};
