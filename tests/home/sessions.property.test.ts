import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adherence } from "../../core/home/adherence.ts";
import { assignSessions, clinicDate, dueSessions, sessionOn } from "../../core/home/due.ts";
import type { Frequency, HomeProgramme } from "../../core/home/programme.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { addDays, formatIsoDate, parseIsoDate } from "../../core/rules/calendar-date.ts";
import { upload, weekly } from "./fixtures.ts";

const DAY = 86_400_000;
const EPOCH = Date.UTC(2020, 0, 1);
const dayIso = (n: number) => new Date(EPOCH + n * DAY).toISOString().slice(0, 10);
const nextDay = (iso: string) => formatIsoDate(addDays(parseIsoDate(iso)!, 1));

const anyFrequency: fc.Arbitrary<Frequency> = fc.oneof(
  fc.constant({ kind: "daily" as const }),
  fc.constant({ kind: "weekly" as const }),
  fc.constant({ kind: "monthly" as const }),
  fc.integer({ min: 2, max: 90 }).map((days) => ({ kind: "every" as const, days })),
);
const anyProgramme: fc.Arbitrary<HomeProgramme> = fc
  .record({
    start: fc.integer({ min: 0, max: 3650 }),
    span: fc.integer({ min: 0, max: 400 }),
    frequency: anyFrequency,
    eyes: fc.constantFrom([Eye.Right], [Eye.Left], [Eye.Right, Eye.Left]),
    timeZone: fc.constantFrom("UTC", "Europe/Berlin", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kathmandu"),
  })
  .map(({ start, span, frequency, eyes, timeZone }) => ({
    ...weekly,
    start: dayIso(start),
    end: dayIso(start + span),
    frequency,
    eyes,
    timeZone,
  }));
/** A programme, a day offset and some uploads around its span (a few days either side, any hour). */
const withUploads = anyProgramme.chain((p) =>
  fc.record({
    p: fc.constant(p),
    today: fc.integer({ min: -10, max: 420 }),
    uploads: fc.array(
      fc.record({
        ms: fc.integer({ min: Date.parse(p.start) - 3 * DAY, max: Date.parse(p.end) + 4 * DAY }),
        eye: fc.constantFrom(Eye.Right, Eye.Left, Eye.Binocular),
        pattern: fc.constantFrom(Pattern.P24_2, Pattern.P24_2, Pattern.P24_2, Pattern.P10_2),
      }),
      { maxLength: 40 },
    ),
  }),
);
const toUploads = (uploads: ReadonlyArray<{ ms: number; eye: Eye; pattern: Pattern }>) =>
  uploads.map((u) => ({ ...upload(new Date(u.ms).toISOString(), u.eye), pattern: u.pattern }));

describe("due sessions (property)", () => {
  it("never overlap and cover the programme's span; sessionOn finds the window that holds a day", () => {
    fc.assert(
      fc.property(anyProgramme, fc.double({ min: 0, max: 1, noNaN: true }), (p, at) => {
        const all = dueSessions(p, p.start, p.end);
        expect(all[0]!.from).toBe(p.start);
        expect(all.at(-1)!.to).toBe(p.end);
        all.forEach((s, k) => {
          expect(s.index).toBe(k);
          expect(s.from <= s.to).toBe(true);
          if (k > 0) expect(s.from).toBe(nextDay(all[k - 1]!.to));
        });
        const span = (Date.parse(p.end) - Date.parse(p.start)) / DAY;
        const day = formatIsoDate(addDays(parseIsoDate(p.start)!, Math.floor(at * span)));
        const holder = all.find((s) => s.from <= day && day <= s.to);
        expect(sessionOn(p, day)).toEqual(holder);
      }),
    );
  });

  it("the sessions due between two dates are the programme's sessions whose due day lies between them", () => {
    fc.assert(
      fc.property(anyProgramme, fc.integer({ min: -30, max: 430 }), fc.integer({ min: 0, max: 200 }), (p, a, length) => {
        const from = formatIsoDate(addDays(parseIsoDate(p.start)!, a));
        const to = formatIsoDate(addDays(parseIsoDate(from)!, length));
        const all = dueSessions(p, p.start, p.end);
        expect(dueSessions(p, from, to)).toEqual(all.filter((s) => s.from >= from && s.from <= to));
      }),
    );
  });
});

describe("arriving results (property)", () => {
  it("each result fulfils at most one session, inside its window, and each session's eye is fulfilled at most once", () => {
    fc.assert(
      fc.property(withUploads, ({ p, uploads }) => {
        const all = toUploads(uploads);
        const { accepted, refused } = assignSessions(p, all);
        expect(accepted.length + refused.length).toBe(all.length);
        const keys = accepted.map((a) => `${a.slot.index}/${a.slot.eye}`);
        expect(new Set(keys).size).toBe(keys.length);
        const sessions = dueSessions(p, p.start, p.end);
        for (const { upload: u, slot } of accepted) {
          const date = clinicDate(p, u.takenAt);
          expect(date >= sessions[slot.index]!.from && date <= sessions[slot.index]!.to).toBe(true);
          expect(u.eye).toBe(slot.eye);
        }
        // A refused result was not due: another test or eye, outside the span, or its slot already taken before it.
        for (const { upload: u, reason } of refused) {
          const date = clinicDate(p, u.takenAt);
          const session = sessionOn(p, date);
          const taken = accepted.some(
            (a) => a.slot.index === session?.index && a.slot.eye === u.eye && all.indexOf(a.upload) < all.indexOf(u),
          );
          const expected =
            u.pattern !== p.pattern
              ? "other-test"
              : !p.eyes.includes(u.eye)
                ? "other-eye"
                : date < p.start
                  ? "before-start"
                  : date > p.end
                    ? "after-end"
                    : taken
                      ? "already-done"
                      : "accepted";
          expect(reason).toBe(expected);
        }
      }),
    );
  });
});

describe("adherence (property)", () => {
  it("rate = done / due in [0, 1] (null with none due), done + missed = due, and after the end every session is due", () => {
    fc.assert(
      fc.property(withUploads, ({ p, uploads, today }) => {
        const day = formatIsoDate(addDays(parseIsoDate(p.start)!, today));
        const a = adherence(p, toUploads(uploads), day);
        expect(a.done + a.missed).toBe(a.due);
        expect(a.partial <= a.missed).toBe(true);
        if (a.due === 0) expect(a.rate).toBeNull();
        else {
          expect(a.rate).toBe(a.done / a.due);
          expect(a.rate! >= 0 && a.rate! <= 1).toBe(true);
        }
        if (day > p.end) expect(a.due).toBe(dueSessions(p, p.start, p.end).length);
      }),
    );
  });
});
