import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adherence, dueSessions } from "../../core/home/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { missedSessions } from "../../simulator/server/review/missed.ts";
import type { ProgrammeRow } from "../../simulator/server/store/home.ts";

// The missed-session items of the review queue (simulator/server/review/missed.ts): a session is missed as core/home's
// adherence counts it ("a session whose window has closed ... without a result for each of the programme's eyes"),
// and each item carries how many were missed in a row up to it (a session with some eye tested ends a run).

const programme = (eyes: Eye[]): ProgrammeRow => ({
  id: "programme-1",
  organisationId: "org-1",
  patientId: "patient-1",
  deviceSn: "VR-0001",
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  eyes,
  frequency: { kind: "weekly" },
  start: "2026-01-05",
  end: "2026-03-29",
  reminderTime: "18:30",
  timeZone: "UTC",
  reminderEmail: null,
  standaloneId: "standalone-1",
  createdBy: "user-1",
  createdAt: "2026-01-01T00:00:00.000Z",
  state: "active",
  endedAt: null,
  endedReason: null,
});

describe("missed sessions as review items", () => {
  it("weekly, one eye: sessions 0-2 missed (1, 2, 3 in a row), 3 done, 4 missed again (1); the open window is not missed", () => {
    const p = programme([Eye.Right]);
    const missed = missedSessions(p, new Map([[3, 1]]), "2026-02-04");
    expect(missed.map((m) => [m.index, m.inRow, m.from, m.to])).toEqual([
      [0, 1, "2026-01-05", "2026-01-11"],
      [1, 2, "2026-01-12", "2026-01-18"],
      [2, 3, "2026-01-19", "2026-01-25"],
    ]);
    // 2026-02-04 lies in session 4's window (02-02 to 02-08): still open, so not missed yet.
    expect(missedSessions(p, new Map([[3, 1]]), "2026-02-09").map((m) => [m.index, m.inRow])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [4, 1],
    ]);
  });

  it("two eyes: a session with one eye tested is missed but ends the run", () => {
    const p = programme([Eye.Right, Eye.Left]);
    const missed = missedSessions(p, new Map([[1, 1]]), "2026-01-26");
    expect(missed.map((m) => [m.index, m.inRow])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
  });

  it("property: as many missed items as core/home's adherence counts missed sessions, each run counted up from 1", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(11), fc.boolean()), { maxLength: 24 }),
        fc.integer({ min: 0, max: 100 }),
        (two, tested, dayOffset) => {
          const eyes = two ? [Eye.Right, Eye.Left] : [Eye.Right];
          const p = programme(eyes);
          const today = new Date(Date.parse("2026-01-05T00:00:00Z") + dayOffset * 86_400_000).toISOString().slice(0, 10);
          const sessions = dueSessions(p, p.start, p.end);
          const slots = new Set(tested.map(([i, left]) => `${i}:${two && left ? Eye.Left : Eye.Right}`));
          const uploads = [...slots].map((k) => {
            const [i, eye] = k.split(":").map(Number) as [number, Eye];
            return { takenAt: `${sessions[i]!.from}T12:00:00.000Z`, eye, pattern: p.pattern, strategy: p.strategy };
          });
          const filled = new Map<number, number>();
          for (const k of slots) filled.set(Number(k.split(":")[0]), (filled.get(Number(k.split(":")[0])) ?? 0) + 1);
          const missed = missedSessions(p, filled, today);
          expect(missed.length).toBe(adherence(p, uploads, today).missed);
          for (const [j, m] of missed.entries()) {
            const previous = missed[j - 1];
            const untouched = !filled.has(m.index) && previous?.index === m.index - 1 && !filled.has(previous.index);
            expect(m.inRow).toBe(untouched ? previous!.inRow + 1 : 1);
          }
        },
      ),
    );
  });
});
