import { describe, expect, it } from "vitest";
import { adherence, belowThreshold, missedBefore } from "../../core/home/adherence.ts";
import { Eye } from "../../core/model/enums.ts";
import { upload, weekly } from "./fixtures.ts";

// The weekly programme's windows: 1-7, 8-14, 15-21, 22-28, 29-31 January 2026 (tests/home/due.test.ts).
const bothEyes = (day: string) => [upload(day, Eye.Right), upload(day, Eye.Left)];

describe("adherence: sessions due, done and missed, and the rate", () => {
  it("counts a session done when every eye was tested in its window; one eye only is a partial miss", () => {
    const uploads = [...bothEyes("2026-01-02"), upload("2026-01-10", Eye.Right), ...bothEyes("2026-01-15")];
    // On the 20th the third week is open, but done already: it is due. Weeks one and two closed.
    expect(adherence(weekly, uploads, "2026-01-20")).toEqual({
      patientId: weekly.patientId,
      due: 3,
      done: 2,
      missed: 1,
      partial: 1,
      rate: 2 / 3,
    });
  });

  it("an open session not yet done is neither due nor missed: the patient still has time", () => {
    const uploads = bothEyes("2026-01-02");
    expect(adherence(weekly, uploads, "2026-01-14")).toMatchObject({ due: 1, done: 1, missed: 0, rate: 1 });
    expect(adherence(weekly, uploads, "2026-01-15")).toMatchObject({ due: 2, done: 1, missed: 1, partial: 0, rate: 0.5 });
  });

  it("no rate before any session is due (no rate from no data); after the end every session is due", () => {
    expect(adherence(weekly, [], "2026-01-03")).toMatchObject({ due: 0, rate: null });
    expect(adherence(weekly, [], "2026-02-01")).toMatchObject({ due: 5, done: 0, missed: 5, rate: 0 });
  });

  it("a result for a session that was not due counts for nothing", () => {
    const uploads = [...bothEyes("2026-01-02"), ...bothEyes("2026-01-03"), ...bothEyes("2026-02-03")];
    expect(adherence(weekly, uploads, "2026-02-10")).toMatchObject({ due: 5, done: 1, missed: 4 });
  });

  it("lists the patients below a threshold, lowest rate first, leaving out those with none due", () => {
    const at = (patientId: string, rate: number | null) => ({ patientId, due: 4, done: 0, missed: 0, partial: 0, rate });
    const list = [at("c", 0.75), at("a", 0.5), at("b", 0.9), at("d", null), at("e", 0.5)];
    expect(belowThreshold(list, 0.8).map((a) => a.patientId)).toEqual(["a", "e", "c"]);
    expect(belowThreshold(list, 0.5)).toEqual([]); // below, not at
  });

  it("counts the sessions missed in a row before a result's session", () => {
    const done = [
      { index: 0, eye: Eye.Right },
      { index: 1, eye: Eye.Left },
    ];
    expect(missedBefore({ index: 4, eye: Eye.Right }, done)).toBe(2); // sessions 2 and 3
    expect(missedBefore({ index: 2, eye: Eye.Right }, done)).toBe(0);
    expect(missedBefore({ index: 3, eye: Eye.Right }, [])).toBe(3);
  });
});
