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
      timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
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

export function clinicTime(instant: string, timeZone: string): ClinicTime {
  const ms = Date.parse(instant);
  const parts: Record<string, string> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  // The offset is the wall clock minus the instant (whole seconds: zones in use today are whole minutes).
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const minutes = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
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
