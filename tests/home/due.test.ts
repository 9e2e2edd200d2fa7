import { describe, expect, it } from "vitest";
import { assignSessions, dueSessions, reminderInstant, sessionAt, sessionFor, sessionOn } from "../../core/home/due.ts";
import type { HomeProgramme } from "../../core/home/programme.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { upload, weekly } from "./fixtures.ts";

const windows = (p: HomeProgramme) => dueSessions(p, p.start, p.end).map((s) => [s.from, s.to]);

describe("due sessions and their windows", () => {
  it("weekly: the programme's own week from its first day (a Thursday), the last window cut at the end", () => {
    expect(windows(weekly)).toEqual([
      ["2026-01-01", "2026-01-07"],
      ["2026-01-08", "2026-01-14"],
      ["2026-01-15", "2026-01-21"],
      ["2026-01-22", "2026-01-28"],
      ["2026-01-29", "2026-01-31"],
    ]);
  });

  it("daily and every N days", () => {
    expect(windows({ ...weekly, frequency: { kind: "daily" }, end: "2026-01-03" })).toEqual([
      ["2026-01-01", "2026-01-01"],
      ["2026-01-02", "2026-01-02"],
      ["2026-01-03", "2026-01-03"],
    ]);
    expect(windows({ ...weekly, frequency: { kind: "every", days: 3 }, end: "2026-01-08" })).toEqual([
      ["2026-01-01", "2026-01-03"],
      ["2026-01-04", "2026-01-06"],
      ["2026-01-07", "2026-01-08"],
    ]);
  });

  it("monthly from the 31st: counted from the start each time, so February's 28th does not drift into March", () => {
    const monthly: HomeProgramme = { ...weekly, frequency: { kind: "monthly" }, start: "2026-01-31", end: "2026-05-15" };
    expect(windows(monthly)).toEqual([
      ["2026-01-31", "2026-02-27"],
      ["2026-02-28", "2026-03-30"],
      ["2026-03-31", "2026-04-29"],
      ["2026-04-30", "2026-05-15"],
    ]);
    expect(sessionOn(monthly, "2026-03-30")?.index).toBe(1);
    expect(sessionOn(monthly, "2026-03-31")?.index).toBe(2);
    // A leap year: the 29th of February opens the second session.
    expect(sessionAt({ ...monthly, start: "2028-01-31", end: "2028-12-31" }, 1)?.from).toBe("2028-02-29");
  });

  it("the sessions due between two dates are those whose due day lies between them", () => {
    expect(dueSessions(weekly, "2026-01-05", "2026-01-22").map((s) => s.index)).toEqual([1, 2, 3]);
    expect(dueSessions(weekly, "2026-01-08", "2026-01-08").map((s) => s.index)).toEqual([1]);
    expect(dueSessions(weekly, "2026-02-01", "2026-03-01")).toEqual([]);
    expect(dueSessions(weekly, "2025-11-01", "2025-12-31")).toEqual([]);
  });
});

describe("reminders", () => {
  it("go out on a session's first day at the reminder time on the clinic's clock, summer time included", () => {
    expect(reminderInstant(weekly, sessionAt(weekly, 1)!)).toBe("2026-01-08T17:30:00.000Z"); // 18:30 CET
    const summer = { ...weekly, start: "2026-07-02", end: "2026-07-31" };
    expect(reminderInstant(summer, sessionAt(summer, 0)!)).toBe("2026-07-02T16:30:00.000Z"); // 18:30 CEST
  });
});

describe("the session an arriving result fulfils", () => {
  it("reads the instant as the clinic's date: 23:30 UTC on 7 January is 8 January in Berlin, the second week", () => {
    const late = upload("2026-01-07T23:30:00.000Z");
    expect(sessionFor(weekly, late, [])).toEqual({ due: true, session: sessionAt(weekly, 1), eye: Eye.Right });
    expect(sessionFor({ ...weekly, timeZone: "UTC" }, late, [])).toMatchObject({ due: true, session: { index: 0 } });
  });

  it("refuses a result for a session that was not due, with the reason (issue 31, Bad input)", () => {
    expect(sessionFor(weekly, upload("2025-12-31"), [])).toEqual({ due: false, reason: "before-start" });
    expect(sessionFor(weekly, upload("yesterday evening"), [])).toEqual({ due: false, reason: "invalid-time" });
    expect(sessionFor(weekly, upload("2026-02-01"), [])).toEqual({ due: false, reason: "after-end" });
    expect(sessionFor({ ...weekly, eyes: [Eye.Left] }, upload("2026-01-02"), [])).toEqual({ due: false, reason: "other-eye" });
    expect(sessionFor(weekly, { ...upload("2026-01-02"), pattern: Pattern.P10_2 }, [])).toEqual({ due: false, reason: "other-test" });
    expect(sessionFor(weekly, { ...upload("2026-01-02"), strategy: Strategy.Normal }, [])).toEqual({ due: false, reason: "other-test" });
    expect(sessionFor(weekly, upload("2026-01-06"), [{ index: 0, eye: Eye.Right }])).toEqual({ due: false, reason: "already-done" });
    expect(sessionFor(weekly, upload("2026-01-06", Eye.Left), [{ index: 0, eye: Eye.Right }])).toMatchObject({ due: true });
  });

  it("in arrival order, a session's eye is fulfilled once; a second test that week is refused", () => {
    const uploads = [upload("2026-01-02"), upload("2026-01-03"), upload("2026-01-03", Eye.Left), upload("2026-01-09")];
    const { accepted, refused } = assignSessions(weekly, uploads);
    expect(accepted.map((a) => a.slot)).toEqual([
      { index: 0, eye: Eye.Right },
      { index: 0, eye: Eye.Left },
      { index: 1, eye: Eye.Right },
    ]);
    expect(refused).toEqual([{ upload: uploads[1], reason: "already-done" }]);
  });
});
