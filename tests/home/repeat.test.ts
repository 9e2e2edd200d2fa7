import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adherence, missedBefore } from "../../core/home/adherence.ts";
import { FUTURE_TOLERANCE_MS, type SessionSlot, clinicDate, sessionFor } from "../../core/home/due.ts";
import { type Repeat, REPEAT_DAYS, repeatCounts, repeatIndex, repeatState, repeatWindow, slotFor } from "../../core/home/repeat.ts";
import { Eye } from "../../core/model/enums.ts";
import { upload, weekly } from "./fixtures.ts";

// A repeat (issue 31 §2, "ask for a repeat"): a one-off session of its own slot, open REPEAT_DAYS days from the clinic's
// day it was asked for within the programme, filled only by a result its regular session no longer takes. And the
// server's now: a result dated more than FUTURE_TOLERANCE_MS past it is refused "in-the-future".

const NOW = "2026-01-10T12:00:00.000Z";
const repeat = (over: Partial<Repeat> = {}): Repeat => ({ number: 1, eyes: [Eye.Right], from: "2026-01-10", to: "2026-01-16", ...over });
const arrival = (repeats: readonly Repeat[], now = "2026-02-01T00:00:00.000Z") => ({ now, repeats });

describe("results dated in the future", () => {
  it(`are refused past the server's now by more than ${FUTURE_TOLERANCE_MS / 60_000} minutes (clock skew within it is taken)`, () => {
    const at = (ms: number) => upload(new Date(Date.parse(NOW) + ms).toISOString());
    expect(sessionFor(weekly, at(FUTURE_TOLERANCE_MS), [], NOW)).toMatchObject({ due: true });
    expect(sessionFor(weekly, at(FUTURE_TOLERANCE_MS + 1), [], NOW)).toEqual({ due: false, reason: "in-the-future" });
    expect(sessionFor(weekly, at(3 * 86_400_000), [], NOW)).toEqual({ due: false, reason: "in-the-future" });
    // Without the server's now (results stored already, re-read for adherence) the future is not checked again.
    expect(sessionFor(weekly, at(3 * 86_400_000), [])).toMatchObject({ due: true });
  });
});

describe("a repeat's window", () => {
  it(`opens on the day asked for and stays open ${REPEAT_DAYS} days, cut at the programme's end; none past the end`, () => {
    expect(repeatWindow(weekly, "2026-01-10")).toEqual({ from: "2026-01-10", to: "2026-01-16" });
    expect(repeatWindow(weekly, "2026-01-28")).toEqual({ from: "2026-01-28", to: "2026-01-31" });
    expect(repeatWindow(weekly, "2026-01-31")).toEqual({ from: "2026-01-31", to: "2026-01-31" });
    expect(repeatWindow(weekly, "2026-02-01")).toBeNull();
    expect(repeatWindow(weekly, "2025-12-30")).toEqual({ from: "2026-01-01", to: "2026-01-07" });
  });
});

describe("which slot a result fills", () => {
  const done: SessionSlot[] = [{ index: 1, eye: Eye.Right }]; // session 1 (8 to 14 January) done for the right eye
  it("the regular session first; a result that session no longer takes fills the pending repeat open on its date", () => {
    expect(slotFor(weekly, upload("2026-01-11"), [], arrival([repeat()]))).toMatchObject({ due: true, session: { index: 1 } });
    expect(slotFor(weekly, upload("2026-01-11"), done, arrival([repeat()]))).toEqual({
      due: true,
      session: { index: -1, from: "2026-01-10", to: "2026-01-16" },
      eye: Eye.Right,
    });
  });
  it("not outside its window, not for another eye, not twice", () => {
    expect(slotFor(weekly, upload("2026-01-09"), done, arrival([repeat()]))).toEqual({ due: false, reason: "already-done" });
    expect(slotFor(weekly, upload("2026-01-11", Eye.Left), [{ index: 1, eye: Eye.Left }], arrival([repeat()]))).toEqual({
      due: false,
      reason: "already-done",
    });
    const filled = [...done, { index: repeatIndex(1), eye: Eye.Right }];
    expect(slotFor(weekly, upload("2026-01-12"), filled, arrival([repeat()]))).toEqual({ due: false, reason: "already-done" });
  });
  it("the future is refused before any repeat is looked at", () => {
    expect(slotFor(weekly, upload("2026-01-11"), done, arrival([repeat()], NOW))).toEqual({ due: false, reason: "in-the-future" });
  });
});

describe("a repeat's state, apart from adherence", () => {
  it("pending while open, done when each eye is tested, missed when its window closed without", () => {
    const r = repeat();
    expect(repeatState(r, [], "2026-01-16")).toBe("pending");
    expect(repeatState(r, [], "2026-01-17")).toBe("missed");
    expect(repeatState(r, [{ index: -1, eye: Eye.Right }], "2026-01-20")).toBe("done");
    expect(repeatCounts([r, repeat({ number: 2, to: "2026-01-11" })], [], "2026-01-12")).toEqual({ pending: 1, done: 0, missed: 1 });
  });
  it("a repeat's slot ends no run of missed sessions", () => {
    expect(missedBefore({ index: repeatIndex(2), eye: Eye.Right }, [{ index: 0, eye: Eye.Right }])).toBe(0);
  });
});

// Property: a repeat slot is filled at most once per eye, never by a result outside its window (or of another eye),
// and repeats leave the programme's adherence as it is.
describe("repeats (property)", () => {
  const DAY = 86_400_000;
  const start = Date.parse("2026-01-01T00:00:00Z");
  const anyRepeats = fc.uniqueArray(
    fc.record({ number: fc.integer({ min: 1, max: 4 }), from: fc.integer({ min: 0, max: 30 }), right: fc.boolean() }),
    { selector: (r) => r.number, maxLength: 4 },
  );
  const anyUploads = fc.array(fc.record({ ms: fc.integer({ min: -2 * DAY, max: 33 * DAY }), left: fc.boolean() }), { maxLength: 30 });
  it("each repeat slot at most once per eye, only from its window and eyes; adherence unchanged", () => {
    fc.assert(
      fc.property(anyRepeats, anyUploads, (rs, us) => {
        const repeats: Repeat[] = rs.flatMap((r) => {
          const w = repeatWindow(weekly, new Date(start + r.from * DAY).toISOString().slice(0, 10));
          return w ? [{ number: r.number, eyes: [r.right ? Eye.Right : Eye.Left], ...w }] : [];
        });
        const uploads = us.map((u) => upload(new Date(start + u.ms).toISOString(), u.left ? Eye.Left : Eye.Right));
        const slots: SessionSlot[] = [];
        const accepted: typeof uploads = [];
        for (const u of uploads) {
          const m = slotFor(weekly, u, slots, arrival(repeats));
          if (!m.due) continue;
          slots.push({ index: m.session.index, eye: m.eye });
          accepted.push(u);
          if (m.session.index < 0) {
            const r = repeats.find((x) => repeatIndex(x.number) === m.session.index)!;
            const date = clinicDate(weekly, u.takenAt);
            expect(r.from <= date && date <= r.to && r.eyes.includes(u.eye)).toBe(true);
          }
        }
        const keys = slots.map((s) => `${s.index}/${s.eye}`);
        expect(new Set(keys).size).toBe(keys.length);
        // Adherence read from the stored results equals adherence of the same uploads without any repeat.
        expect(adherence(weekly, accepted, "2026-02-10")).toEqual(adherence(weekly, uploads, "2026-02-10"));
      }),
    );
  });
});
