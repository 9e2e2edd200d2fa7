import { afterEach, describe, expect, it, vi } from "vitest";
import { auditTrail, type AuditEvent } from "../../simulator/server/audit/trail.ts";
import type { Database, Queryable } from "../../simulator/server/db/database.ts";

// Issue 15 §6: the audit trail is what a clinic shows an inspector, so a database outage may delay it but must not
// lose an event. A database that refuses the first writes, then accepts: every event arrives, once, in order.

const event = (n: number): AuditEvent => ({
  organisationId: "org",
  at: new Date(Date.UTC(2026, 10, 25, 12, 0, n)).toISOString(),
  actorKind: "user",
  actorId: "u1",
  actorName: "manager",
  address: "127.0.0.1",
  action: `patient/get#${n}`,
  outcome: "ok",
  patientId: "p1",
});

function flakyDatabase(failures: number) {
  const stored: string[] = [];
  const statements: number[] = [];
  let left = failures;
  const tx: Queryable = {
    async query(sql, params) {
      // The chain's lock and tail (migration 016): the tail is the last event stored here, if any.
      if (!sql.startsWith("insert")) {
        if (/count\(\*\)/.test(sql)) return [{ n: "0", last: null }] as never;
        return (
          /order by seq desc/.test(sql) && stored.length > 0 ? [{ tail_seq: String(stored.length), hash: "0".repeat(64) }] : []
        ) as never;
      }
      // One array parameter per column; the seventh is the actions (the chain's start entry is not counted).
      const actions = ((params ?? [])[6] as string[]).filter((a) => a !== "audit.chainStart");
      statements.push(actions.length);
      stored.push(...actions);
      return [];
    },
  };
  const db = {
    query: tx.query,
    async transaction(work: (q: Queryable) => Promise<unknown>) {
      if (left > 0) {
        left--;
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      }
      return work(tx);
    },
    snapshot: (work: (q: Queryable) => Promise<unknown>) => work(tx),
  } as unknown as Database;
  return { db, stored, statements };
}

describe("audit trail during a database outage", () => {
  afterEach(() => vi.useRealTimers());

  it("keeps refused batches and writes every event once, in order, when the database is back", async () => {
    vi.useFakeTimers();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { db, stored } = flakyDatabase(3);
    const trail = auditTrail(db);
    for (let n = 0; n < 5; n++) trail.record(event(n));
    await trail.flush(); // refused: back in the queue
    expect(stored).toEqual([]);
    for (let n = 5; n < 8; n++) trail.record(event(n));
    await vi.advanceTimersByTimeAsync(2_100); // retry: refused again
    await vi.advanceTimersByTimeAsync(2_100); // refused a third time
    expect(stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_100); // the database is back
    expect(stored).toEqual(Array.from({ length: 8 }, (_, n) => `patient/get#${n}`));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stored).toHaveLength(8);
    const lines = stderr.mock.calls.map((c) => String(c[0]));
    stderr.mockRestore();
    expect(lines.filter((l) => l.includes("audit_trail_write_failed"))).toHaveLength(1); // one line per outage
    expect(lines.some((l) => l.includes("audit_trail_written_again"))).toBe(true);
  });

  it("a backlog of thousands of events is written whole and in order, in statements of at most 100 rows (a few ms of PGlite's time each)", async () => {
    vi.useFakeTimers();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { db, stored, statements } = flakyDatabase(1);
    const trail = auditTrail(db);
    trail.record(event(0));
    await trail.flush(); // refused: the trail holds its events from here on until the retry
    for (let n = 1; n < 7_000; n++) trail.record(event(n % 60));
    await vi.advanceTimersByTimeAsync(2_100);
    stderr.mockRestore();
    expect(stored).toEqual(Array.from({ length: 7_000 }, (_, n) => `patient/get#${n % 60}`));
    expect(Math.max(...statements)).toBeLessThanOrEqual(100);
    expect(statements.length).toBe(71); // 7,000 events and, first, the chain's start entry (migration 016)
  });
});
