/**
 * An instant as the clinic's wall clock shows it: day, time and offset from UTC in an IANA time zone (results store
 * UTC instants; printouts, DICOM and FHIR carry the clinic's local time with its offset, so a reader in another zone
 * still gets the instant right).
 */
export interface ClinicTime {
  /** YYYY-MM-DD */
  readonly date: string;
  /** HH:MM:SS */
  readonly time: string;
  /** +HH:MM or -HH:MM (UTC is +00:00). */
  readonly offset: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
};

/** Whether the runtime knows the zone (an unknown one is a user's typo, named in the error). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock minus the instant, in ms (whole seconds), read from Intl at one instant. */
function offsetAt(ms: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

// An export formats ten thousand instants; Intl's formatToParts costs ~7 µs each. A zone's offset holds for hours on
// end, so it is read from Intl once per UTC hour (at its first and last second: when they differ, a transition falls
// inside that hour and each instant in it is read exactly).
const HOUR_MS = 3_600_000;
const hourOffsets = new Map<string, number>();
function offsetOf(ms: number, timeZone: string): number {
  const hour = Math.floor(ms / HOUR_MS);
  const key = `${timeZone} ${hour}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const first = offsetAt(hour * HOUR_MS, timeZone);
    offset = first === offsetAt(hour * HOUR_MS + HOUR_MS - 1000, timeZone) ? first : Number.NaN;
    if (hourOffsets.size >= 10_000) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  return Number.isNaN(offset) ? offsetAt(ms, timeZone) : offset;
}

export function clinicTime(instant: string, timeZone: string): ClinicTime {
  const ms = Date.parse(instant);
  const offsetMs = offsetOf(ms, timeZone);
  // The wall clock to the second, as Intl shows it: the instant's whole seconds moved by the offset.
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetMs).toISOString();
  const date = wall.slice(0, 10);
  const time = wall.slice(11, 19);
  // The offset in minutes (whole seconds: zones in use today are whole minutes).
  const minutes = Math.round(offsetMs / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return { date, time, offset };
}

/** ISO 8601 with the clinic's offset: 2024-03-05T15:07:09+01:00. */
export const clinicDateTime = (instant: string, timeZone: string): string => {
  const t = clinicTime(instant, timeZone);
  return `${t.date}T${t.time}${t.offset}`;
};

/**
 * The instant a wall clock in `timeZone` showed ("2021-03-04T10:20:30.000" read in Europe/Berlin): what a file written
 * without its offset from UTC means (a perimeter's local time). In the hour a clock goes back, the earlier of the two
 * instants; in the hour it skips, the time as if the change had not happened yet.
 */
export function instantOfWallClock(wall: string, timeZone: string): string {
  const asUtc = Date.parse(`${wall}Z`);
  const first = asUtc - offsetOf(asUtc, timeZone);
  const second = asUtc - offsetOf(first, timeZone);
  return new Date(Math.min(first, second)).toISOString();
}
