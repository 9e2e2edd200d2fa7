import { expect, it } from "vitest";
import { verifyChain } from "../../../simulator/server/audit/verify.ts";
import { asAdministrator } from "../audit-tools.ts";
import type { ServerRef } from "./accounts.ts";

// Issue 33, done when: "audit tampering: an edited row, a deleted row and an inserted row, each detected by verify".
// The attacker is a database administrator: the append-only trigger switched off, the row changed, then the trigger
// on again. verifyChain is what `isopter audit verify` runs (simulator/server/audit/verify-main.ts, tests/cli/
// audit-verify.test.ts runs the command itself). Each case puts the row back, so the next finds its own break first.

export const auditTamperCases = (server: ServerRef) => {
  const chained = async () => {
    // Enough entries to tamper in the middle of, whichever cases ran before.
    for (let n = 0; n < 30; n++)
      server().ctx.audit.record({
        organisationId: null,
        at: new Date().toISOString(),
        actorKind: "anonymous",
        actorId: null,
        actorName: `tamper-${n}`,
        address: "127.0.0.1",
        action: "login",
        outcome: "invalid_credentials",
      });
    await server().ctx.audit.flush();
    return (await server().db.query<{ id: string }>("select id from audit_events where seq is not null order by seq limit 50")).map((r) =>
      Number(r.id),
    );
  };

  it("an edited row (a failed login made a success) is named as changed", async () => {
    const db = server().db;
    const id = (await chained())[10]!;
    const [row] = await db.query<{ outcome: string; actor_name: string | null }>(
      "select outcome, actor_name from audit_events where id = $1",
      [id],
    );
    await asAdministrator(db, "update audit_events set outcome = 'success', actor_name = 'nobody' where id = $1", [id]);
    expect((await verifyChain(db)).broken).toMatchObject({ kind: "changed", id });
    await asAdministrator(db, "update audit_events set outcome = $2, actor_name = $3 where id = $1", [id, row!.outcome, row!.actor_name]);
    expect((await verifyChain(db)).broken).toBeNull();
  });

  it("a deleted row is named: the entry after the gap, and the position removed", async () => {
    const db = server().db;
    const ids = await chained();
    const [row] = await db.query("select * from audit_events where id = $1", [ids[20]]);
    await asAdministrator(db, "delete from audit_events where id = $1", [ids[20]]);
    const broken = (await verifyChain(db)).broken;
    expect(broken).toMatchObject({ kind: "removed", id: ids[21] });
    expect(broken!.message).toContain("position 20 was removed");
    await asAdministrator(db, "insert into audit_events select * from jsonb_populate_record(null::audit_events, $1::jsonb)", [
      JSON.stringify(row),
    ]);
    expect((await verifyChain(db)).broken).toBeNull();
  });

  it("an inserted row (a made-up read of a patient) is named as inserted", async () => {
    const db = server().db;
    const [inserted] = await db.query<{ id: string }>(
      "insert into audit_events (organisation_id, at, actor_kind, actor_name, action, outcome) values (null, $1, 'user', 'manager', 'patient.get', 'success') returning id",
      [new Date().toISOString()],
    );
    const forged = Number(inserted!.id);
    expect((await verifyChain(db)).broken).toMatchObject({ kind: "inserted", id: forged });
    await asAdministrator(db, "delete from audit_events where id = $1", [forged]);
    expect((await verifyChain(db)).broken).toBeNull();
  });
};
