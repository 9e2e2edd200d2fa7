import { expect, it } from "vitest";
import type { Endpoint } from "../../core/model/contract/index.ts";
import type { call, ok } from "./harness.ts";
import { programmeBody } from "./home-fixtures.ts";

// The contract suite's part for the review queue and the adherence list (issue 31 §2, §3): a weekly programme started
// three weeks ago has three closed windows and no result, so three missed-session items appear on read (one per
// session, with how many in a row); mark, note and book act on them, a repeat is refused (no result to repeat); counts per flag; adherence below a threshold.

interface Calls {
  c<E extends Endpoint>(name: E, input: Parameters<typeof call<E>>[2], token?: string): ReturnType<typeof call<E>>;
  o<E extends Endpoint>(name: E, input: Parameters<typeof ok<E>>[2], token?: string): ReturnType<typeof ok<E>>;
  newPatient(name: string): Promise<{ id: string }>;
  /** A headset to lend (no test runs on it) and a clinic headset to book a visit on. */
  deviceSn(): Promise<string>;
  clinicSn(): Promise<string>;
}

export const reviewContractCases = ({ c, o, newPatient, deviceSn, clinicSn }: Calls) => {
  it("review: missed sessions are items on read (how many in a row); mark, note, book (no repeat of a missed session); counts; adherence below", async () => {
    const p = await newPatient("Review Missed");
    const made = await o("home.programmeCreate", { body: programmeBody(p.id, await deviceSn()) });
    const mine = async (state: "new" | "reviewed") =>
      (await o("review.queue", { query: { flag: "missed", state } })).items.filter((i) => i.patient.id === p.id);
    const before = await o("review.counts", {});
    const items = await mine("new");
    expect(items.map((i) => [i.kind, i.session?.index, i.flags])).toEqual(
      [1, 2, 3].map((n) => ["missed", n - 1, [{ kind: "missed", reasons: [{ code: "missed-sessions", sessions: n }] }]]),
    );
    expect(items[0]).toMatchObject({
      programmeId: made.id,
      patient: { name: "Review Missed" },
      measurementId: null,
      state: "new",
      triage: "done",
    });
    // Read again: nothing found twice.
    expect((await mine("new")).length).toBe(3);
    expect((await o("review.counts", {})).missed).toBe(before.missed);

    const [first, second, third] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];
    const marked = await o("review.mark", { query: { id: first.id }, body: { note: "Called the patient" } });
    expect(marked).toMatchObject({ state: "reviewed", note: "Called the patient", reviewedBy: expect.any(String) });
    expect((await o("review.counts", {})).missed).toBe(before.missed - 1);
    expect((await mine("reviewed")).map((i) => i.id)).toEqual([first.id]);
    expect((await mine("new")).map((i) => i.id)).toEqual([second.id, third.id]);

    expect(await o("review.note", { query: { id: second.id }, body: { note: "Away on holiday" } })).toMatchObject({
      note: "Away on holiday",
    });
    expect(await o("review.note", { query: { id: second.id }, body: { note: "" } })).toMatchObject({ note: null, state: "new" });
    // A missed session has no result to repeat: refused naming the item (the repeat itself: review-headsets-suite.ts).
    const repeat = await c("review.repeat", { query: { id: second.id } });
    expect([repeat.status, repeat.error?.field]).toEqual([400, "query.id"]);
    expect((await o("review.note", { query: { id: second.id }, body: { note: "" } })).repeat).toBeNull();

    const clinic = await clinicSn();
    const booked = await o("review.book", { query: { id: third.id }, body: { deviceSn: clinic } });
    expect(booked.bookedMeasurementIds.length).toBe(2); // the programme's two eyes, as perimetry/register queues 'Both'
    const queued = (await o("perimetry.all", { query: { patientId: p.id } })).filter((m) => booked.bookedMeasurementIds.includes(m.id));
    expect(queued.map((m) => [m.deviceSn, m.result])).toEqual([
      [clinic, null],
      [clinic, null],
    ]);

    const nowhere = await c("review.book", { query: { id: third.id }, body: { deviceSn: "VR-NOWHERE" } });
    expect([nowhere.status, nowhere.error?.field]).toEqual([404, "body.deviceSn"]);
    expect((await c("review.mark", { query: { id: "nowhere" }, body: {} })).status).toBe(404);
    expect((await c("review.queue", { query: { quantity: 0 } })).status).toBe(400);
    const paged = await o("review.queue", { query: { flag: "missed", quantity: 1 } });
    expect([paged.items.length, paged.total >= 2, paged.page]).toEqual([1, true, 0]);

    // Adherence: three sessions due, none done.
    const row = {
      programmeId: made.id,
      patient: { id: p.id, name: "Review Missed" },
      due: 3,
      done: 0,
      missed: 3,
      rate: 0,
      repeats: { pending: 0, done: 0, missed: 0 },
    };
    expect((await o("home.adherenceList", { query: {} })).find((r) => r.programmeId === made.id)).toMatchObject(row);
    expect((await o("home.adherenceList", { query: { below: 0.8 } })).find((r) => r.programmeId === made.id)).toMatchObject(row);
    expect((await o("home.adherenceList", { query: { below: 0 } })).find((r) => r.programmeId === made.id)).toBeUndefined();
    await o("home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } });
    expect((await o("home.adherenceList", { query: {} })).find((r) => r.programmeId === made.id)).toBeUndefined();
  });
};
