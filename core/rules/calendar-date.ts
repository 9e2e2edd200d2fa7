// Calendar dates as ISO "YYYY-MM-DD" strings, computed in UTC so no time zone or clock is involved.

export interface CalendarDate {
  readonly year: number;
  readonly month: number; // 1..12
  readonly day: number; // 1..31
}

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The real calendar date a "YYYY-MM-DD" text names, else undefined (so 2023-02-29 is refused). */
export const parseIsoDate = (value: string): CalendarDate | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) ? { year, month, day } : undefined;
};

const pad = (n: number, width: number): string => String(n).padStart(width, "0");
export const formatIsoDate = ({ year, month, day }: CalendarDate): string => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** Same month and day `years` earlier or later; 29 February falls back to the 28th in a common year. */
export const addYears = (date: CalendarDate, years: number): CalendarDate => {
  const year = date.year + years;
  return { year, month: date.month, day: Math.min(date.day, daysInMonth(year, date.month)) };
};

export const addDays = (date: CalendarDate, days: number): CalendarDate => {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/** ISO strings of real dates order like the dates. */
export const compareIsoDates = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
