import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditTrail, type AuditEvent } from "../../simulator/server/audit/trail.ts";
import { entryHash, GENESIS } from "../../simulator/server/audit/chain.ts";
import { checkChainTail, verifyChain } from "../../simulator/server/audit/verify.ts";
import type { Database } from "../../simulator/server/db/database.ts";
import { openDatabase, type Storage } from "../../simulator/server/db/open.ts";
import { asAdministrator } from "./audit-tools.ts";
import { testStorage, type Backend } from "./harness.ts";

// Issue 33 §3: "Each entry carries the hash of the one before it", and verify "names the first entry that was changed,
// removed or inserted". Each tampering is done as a database administrator would: the append-only trigger switched
// off, the row edited, removed or added, the trigger switched on again.

const event = (n: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  organisationId: "org",
  at: new Date(Date.UTC(2026, 10, 28, 9, 0, n)).toISOString(),
  actorKind: "user",
  actorId: "u1",
  actorName: "manager",
  address: "127.0.0.1",
  action: "patient.get",
  outcome: "success",
  patientId: `p${n}`,
  recordType: "patient",
  recordId: `p${n}`,
  ...extra,
});

const chainSuite = (backend: Backend) =>
  describe(`the audit chain on ${backend}`, () => {
    let db: Database;
    let drop: () => Promise<void>;
    let storage: Storage;
    beforeAll(async () => {
      const s = await testStorage(backend);
      drop = s.drop;
      storage = s.storage;
      db = await openDatabase(s.storage);
    }, 60_000);
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });

    const ids = async () =>
      (await db.query<{ id: string; seq: string | null }>("select id, seq from audit_events order by id")).map((r) => ({
        id: Number(r.id),
        seq: r.seq === null ? null : Number(r.seq),
      }));

    it("entries from before the chain are counted by its start entry; every later entry links to the one before", async () => {
      // Two entries written before migration 016's chain began (as an older Isopter wrote them: no seq, no hash).
      for (const n of [1, 2])
        await db.query(
          "insert into audit_events (organisation_id, at, actor_kind, action, outcome) values ('org', $1, 'user', 'login', 'success')",
          [event(n).at],
        );
      const trail = auditTrail(db);
      for (let n = 0; n < 30; n++) trail.record(event(n));
      await trail.flush();
      const rows = await db.query<{ place: string; prev_hash: string; hash: string; action: string; record_id: string }>(
        "select seq::text as place, prev_hash, hash, action, record_id from audit_events where seq is not null order by seq",
      );
      expect(rows[0]).toMatchObject({
        place: "0",
        prev_hash: GENESIS,
        action: "audit.chainStart",
        record_id: expect.stringMatching(/^2:\d+$/),
      });
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
      const report = await verifyChain(db);
      expect(report).toMatchObject({ entries: 31, beforeChain: 2, broken: null, tail: { seq: 30, hash: rows[30]!.hash } });
      expect(await checkChainTail(db, 10)).toEqual({ entries: 10, broken: null });
    });

    it("two writers at once (two processes on one database) append one after another: one chain (on PostgreSQL from two connection pools)", async () => {
      const second = backend === "postgres" ? await openDatabase(storage) : db;
      const [a, b] = [auditTrail(db), auditTrail(second)];
      for (let round = 0; round < 5; round++) {
        for (let n = 0; n < 300; n++) (n % 2 ? a : b).record(event(n, { actorName: n % 2 ? "a" : "b" }));
        await Promise.all([a.flush(), b.flush()]);
      }
      if (second !== db) await second.close();
      expect(await verifyChain(db)).toMatchObject({ entries: 31 + 1_500, broken: null });
    });

    it("an edited row is named as changed", async () => {
      const target = (await ids()).filter((r) => r.seq !== null)[12]!;
      const [row] = await db.query<{ actor_name: string }>("select actor_name from audit_events where id = $1", [target.id]);
      await asAdministrator(db, "update audit_events set actor_name = 'someone else' where id = $1", [target.id]);
      expect((await verifyChain(db)).broken).toMatchObject({ kind: "changed", id: target.id, seq: target.seq });
      expect((await checkChainTail(db, 10_000)).broken).toMatchObject({ kind: "changed", id: target.id });
      await asAdministrator(db, "update audit_events set actor_name = $2 where id = $1", [target.id, row!.actor_name]);
      expect((await verifyChain(db)).broken).toBeNull();
    });

    it("an edited row whose hash was made again is named by the entry after it", async () => {
      const target = (await ids()).filter((r) => r.seq !== null)[20]!;
      const [row] = await db.query<Record<string, string | null>>("select * from audit_events where id = $1", [target.id]);
      const fields = { ...row, actor_name: "forger" } as never;
      const forged = entryHash(target.seq!, row!.prev_hash!, fields);
      await asAdministrator(db, "update audit_events set actor_name = 'forger', hash = $2 where id = $1", [target.id, forged]);
      const broken = (await verifyChain(db)).broken;
      expect(broken).toMatchObject({ kind: "changed", id: target.id });
      expect(broken!.message).toMatch(/hash made again/);
      await asAdministrator(db, "update audit_events set actor_name = $2, hash = $3 where id = $1", [
        target.id,
        row!.actor_name,
        row!.hash,
      ]);
    });

    it("a deleted row is named by its position, between the entries around it", async () => {
      const chained = (await ids()).filter((r) => r.seq !== null);
      const target = chained[7]!;
      const [row] = await db.query("select * from audit_events where id = $1", [target.id]);
      await asAdministrator(db, "delete from audit_events where id = $1", [target.id]);
      const broken = (await verifyChain(db)).broken;
      expect(broken).toMatchObject({ kind: "removed", id: chained[8]!.id });
      expect(broken!.message).toContain(`position ${target.seq}`);
      await asAdministrator(db, "insert into audit_events select * from jsonb_populate_record(null::audit_events, $1::jsonb)", [
        JSON.stringify(row),
      ]);
      expect((await verifyChain(db)).broken).toBeNull();
    });

    it("an inserted row is named: one without a hash, and one that copies a place and a predecessor's hash", async () => {
      await db.query(
        "insert into audit_events (organisation_id, at, actor_kind, action, outcome) values ('org', $1, 'user', 'patient.delete', 'success')",
        [new Date().toISOString()],
      );
      const naive = Math.max(...(await ids()).map((r) => r.id));
      expect((await verifyChain(db)).broken).toMatchObject({ kind: "inserted", id: naive });
      expect((await checkChainTail(db, 50)).broken).toMatchObject({ kind: "inserted", id: naive });
      await asAdministrator(db, "delete from audit_events where id = $1", [naive]);
      // A forger who knows the encoding: a row at an existing place, after its predecessor, with a correct own hash.
      const chained = (await ids()).filter((r) => r.seq !== null);
      const place = chained[15]!;
      const [before] = await db.query<{ hash: string }>("select hash from audit_events where seq = $1", [place.seq! - 1]);
      const [original] = await db.query<Record<string, string | null>>("select * from audit_events where id = $1", [place.id]);
      const fields: Record<string, string | null> = { ...original!, actor_name: "forger" };
      await db.exec("drop index audit_events_seq");
      await db.query(
        "insert into audit_events (organisation_id, at, actor_kind, actor_id, actor_name, address, action, outcome, patient_id, record_type, record_id, note, seq, prev_hash, hash) values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)",
        [
          fields.organisation_id,
          fields.at,
          fields.actor_kind,
          fields.actor_id,
          "forger",
          fields.address,
          fields.action,
          fields.outcome,
          fields.patient_id,
          fields.record_type,
          fields.record_id,
          fields.note,
          place.seq,
          before!.hash,
          entryHash(place.seq!, before!.hash, fields as never),
        ],
      );
      const forged = Math.max(...(await ids()).map((r) => r.id));
      expect((await verifyChain(db)).broken).toMatchObject({ kind: "inserted", id: forged, seq: place.seq });
      await asAdministrator(db, "delete from audit_events where id = $1", [forged]);
      await db.exec("create unique index audit_events_seq on audit_events (seq)");
      expect((await verifyChain(db)).broken).toBeNull();
    });

    it("an entry from before the chain removed is found by the start entry's count", async () => {
      const first = (await ids())[0]!;
      expect(first.seq).toBeNull();
      const [row] = await db.query("select * from audit_events where id = $1", [first.id]);
      await asAdministrator(db, "delete from audit_events where id = $1", [first.id]);
      expect((await verifyChain(db)).broken).toMatchObject({ kind: "removed", seq: 0 });
      await asAdministrator(db, "insert into audit_events select * from jsonb_populate_record(null::audit_events, $1::jsonb)", [
        JSON.stringify(row),
      ]);
      expect((await verifyChain(db)).broken).toBeNull();
    });
  });

chainSuite("pglite");
if (process.env.TEST_DATABASE_URL) chainSuite("postgres");
else describe("the audit chain on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
