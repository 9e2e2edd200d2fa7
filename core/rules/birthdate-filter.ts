// Accounts seed §5: "Patient search birthdate filter: day 01-31, month 01-12, year 1901 to the current year; it
// applies only when all three are chosen."

const twoDigits = (n: number): string => String(n).padStart(2, "0");
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

export const firstFilterYear = 1901;

/** The three selects' options; the current year is passed in (the rules never read a clock). */
export const birthdateFilterOptions = (currentYear: number) => ({
  days: range(1, 31).map(twoDigits),
  months: range(1, 12).map(twoDigits),
  years: range(firstFilterYear, currentYear).map(String),
});

export interface BirthdateFilterParts {
  readonly day: string | null;
  readonly month: string | null;
  readonly year: string | null;
}

/**
 * The birthdate to filter by ("YYYY-MM-DD"), or null when the filter does not apply: not all three parts chosen, or
 * a part outside its options. Impossible days such as 31 February pass through and simply match no patient.
 */
export const birthdateFilter = (parts: BirthdateFilterParts, currentYear: number): string | null => {
  const { days, months, years } = birthdateFilterOptions(currentYear);
  if (parts.day === null || parts.month === null || parts.year === null) return null;
  if (!days.includes(parts.day) || !months.includes(parts.month) || !years.includes(parts.year)) return null;
  return `${parts.year}-${parts.month}-${parts.day}`;
};
