import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cut, storableEvent, VALUE_MAX } from "../../simulator/server/audit/storable.ts";
import { auditTrail, type AuditEvent } from "../../simulator/server/audit/trail.ts";
import { verifyChain } from "../../simulator/server/audit/verify.ts";
import type { Database } from "../../simulator/server/db/database.ts";
import { openDatabase } from "../../simulator/server/db/open.ts";

// Issue 33 §6, "a trail no request can stop": "Every event is made storable before it is queued: long values are cut
// to a stated length, and the cut is marked and counted. A batch the database refuses for a reason other than being
// away is split until the one bad event is found. That event is written in a reduced form that says why, and the rest
// go on."

const event = (n: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  organisationId: "org",
  at: new Date(Date.UTC(2026, 10, 28, 9, 0, n)).toISOString(),
  actorKind: "user",
  actorId: "u1",
  actorName: "manager",
  address: "127.0.0.1",
  action: `patient.get#${n}`,
  outcome: "success",
  patientId: "p1",
  ...extra,
});

const unpaired = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("an event made storable", () => {
  it("any value: at most VALUE_MAX characters, no NUL, no unpaired surrogate; a cut value ends in …[+N], N the characters cut", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 3_000 }), (s) => {
        const { event: e, cutValues } = storableEvent(event(0, { patientId: s, actorName: s }));
        for (const v of [e.patientId!, e.actorName!]) {
          expect(v.length).toBeLessThanOrEqual(VALUE_MAX);
          expect(v.includes("\0") || unpaired.test(v)).toBe(false);
        }
        if (s.length <= VALUE_MAX) {
          expect(cutValues).toBe(0);
          return;
        }
        expect(cutValues).toBe(2);
        const m = /…\[\+(\d+)\]$/.exec(e.patientId!)!;
        expect(e.patientId!.length - m[0].length + Number(m[1])).toBe(s.length);
        expect(e.note).toBe(`cut to ${VALUE_MAX} characters: actorName (${s.length} characters), patientId (${s.length} characters)`);
      }),
      { numRuns: 300 },
    );
  });

  it("the fuzz's 5000-digit id is cut to 256 characters, the cut named", () => {
    const [value, removed] = cut("9".repeat(5_000), VALUE_MAX);
    expect([value.length, removed, value.endsWith(`…[+${removed}]`), value.startsWith("9".repeat(200))]).toEqual([256, 4_752, true, true]);
  });
});

describe("a batch the database refuses", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dataDir: undefined });
  });
  afterAll(async () => db?.close());

  it("is split until the refused event is found; it is written reduced, saying why; the rest go on, in order, chained", async () => {
    // A refusal that is not an outage: a check the event breaks (as the index's row size limit once was).
    await db.exec("alter table audit_events add constraint refuses_poison check (actor_name is distinct from 'poison')");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const trail = auditTrail(db);
    for (let n = 0; n < 28; n++) trail.record(event(n, n === 17 ? { actorName: "poison" } : {}));
    await trail.flush();
    stderr.mockRestore();
    const rows = await db.query<{ action: string; actor_name: string | null; patient_id: string | null; note: string | null }>(
      "select action, actor_name, patient_id, note from audit_events where action like 'patient.get#%' order by seq",
    );
    expect(rows.map((r) => r.action)).toEqual(Array.from({ length: 28 }, (_, n) => `patient.get#${n}`));
    expect(rows[17]).toMatchObject({
      actor_name: null,
      patient_id: null,
      note: expect.stringMatching(/^reduced: the database refused the full event \(23514 .*refuses_poison/),
    });
    expect(rows.filter((r) => r.note !== null)).toHaveLength(1);
    expect(trail.stats()).toMatchObject({ reducedEvents: 1, queued: 0 });
    expect((await verifyChain(db)).broken).toBeNull();
    await db.exec("alter table audit_events drop constraint refuses_poison");
  });

  it("a database that refuses even the reduced form keeps every event queued, and writes them all once it takes them", async () => {
    await db.exec("alter table audit_events add constraint refuses_all check (action = 'never') not valid");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const trail = auditTrail(db);
    for (let n = 100; n < 110; n++) trail.record(event(n));
    await trail.flush();
    expect(trail.stats().queued).toBe(10);
    await db.exec("alter table audit_events drop constraint refuses_all");
    await trail.flush();
    stderr.mockRestore();
    const actions = (
      await db.query<{ action: string }>("select action from audit_events where action like 'patient.get#1__' order by seq")
    ).map((r) => r.action);
    expect(actions).toEqual(Array.from({ length: 10 }, (_, i) => `patient.get#${100 + i}`));
    expect((await verifyChain(db)).broken).toBeNull();
  });

  it("closing while the database refuses everything says how many events are unwritten and leaves no retry behind", async () => {
    await db.exec("alter table audit_events add constraint refuses_all check (action = 'never') not valid");
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const trail = auditTrail(db);
    for (let n = 200; n < 203; n++) trail.record(event(n));
    await trail.close();
    const attempts = vi.spyOn(db, "transaction");
    await new Promise((r) => setTimeout(r, 2_300)); // past the retry interval
    stderr.mockRestore();
    await db.exec("alter table audit_events drop constraint refuses_all");
    expect(attempts).not.toHaveBeenCalled();
    attempts.mockRestore();
    expect(lines.filter((l) => l.includes("audit_trail_events_unwritten"))).toEqual([expect.stringContaining("events=3")]);
  });
});
