import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { clinicDateTime, clinicTime } from "../../core/model/clinic-time.ts";

// The clinic's wall clock and offset for an instant, as Intl reads it in the zone (what printouts, DICOM and FHIR
// carry). clinicTime reads the offset once per UTC hour; these check it against Intl at the instant itself, across
// daylight-saving changes and odd offsets.

const zones = [
  "UTC",
  "Europe/Berlin",
  "Europe/Istanbul",
  "America/New_York",
  "America/St_Johns",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Africa/Monrovia",
];

/** Straight from Intl, instant by instant. */
function reference(instant: string, timeZone: string) {
  const ms = Date.parse(instant);
  const f = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  const minutes = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const abs = Math.abs(minutes);
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    time: `${p.hour}:${p.minute}:${p.second}`,
    offset: `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`,
  };
}

describe("clinic time", () => {
  it("is Intl's wall clock and offset in the zone, for any instant (1950-2060)", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2060, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        const instant = new Date(ms).toISOString();
        expect(clinicTime(instant, zone)).toEqual(reference(instant, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it("is right on each side of a daylight-saving change, second by second around it", () => {
    // Europe/Berlin left summer time at 2024-10-27 01:00 UTC; Lord Howe moves by half an hour (2024-04-06 15:00 UTC).
    for (const [zone, change] of [
      ["Europe/Berlin", Date.UTC(2024, 9, 27, 1)],
      ["Australia/Lord_Howe", Date.UTC(2024, 3, 6, 15)],
    ] as const)
      for (let ms = change - 3_600_000; ms <= change + 3_600_000; ms += 59_000) {
        const instant = new Date(ms).toISOString();
        expect(clinicTime(instant, zone)).toEqual(reference(instant, zone));
      }
    expect(clinicDateTime("2024-10-27T00:59:59.000Z", "Europe/Berlin")).toBe("2024-10-27T02:59:59+02:00");
    expect(clinicDateTime("2024-10-27T01:00:00.000Z", "Europe/Berlin")).toBe("2024-10-27T02:00:00+01:00");
  });
});
