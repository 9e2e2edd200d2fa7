/** Today's date in the browser's time zone as "YYYY-MM-DD" (core/rules take dates, never read a clock). */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
