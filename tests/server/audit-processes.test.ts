import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { auditTrail } from "../../simulator/server/audit/trail.ts";
import { verifyChain } from "../../simulator/server/audit/verify.ts";
import { openDatabase } from "../../simulator/server/db/open.ts";
import { login, ok, testStorage } from "./harness.ts";
import { onPostgres, startProcesses, type Processes } from "./processes/harness.ts";

// Issue 33 §3 with several processes on one PostgreSQL (issue 17): "only one writer may append at a time", so the
// chain stays one line whichever process answered the call. Three server processes answer calls at once; the chain
// holds and counts every event. Two processes starting together on a database without a chain start it once.

onPostgres("the audit chain across processes on one PostgreSQL", () => {
  let processes: Processes;
  beforeAll(async () => {
    processes = await startProcesses(3);
  }, 180_000);
  afterAll(async () => processes?.close());

  it("calls answered by three processes at once: one chain, every event in it", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const [a, b, c] = processes.servers.map((s) => s.url) as [string, string, string];
    const user = await login(a, "user");
    const manager = await login(b, "manager");
    const patients = await ok(c, "patient.all", {}, user);
    const before = Number((await processes.servers[0]!.db.query<{ n: string }>("select count(*)::text as n from audit_events"))[0]!.n);
    const calls = patients.slice(0, 10).flatMap((p, i) => [
      ok([a, b, c][i % 3]!, "patient.get", { query: { id: p.id } }, user),
      ok([a, b, c][(i + 1) % 3]!, "patient.get", { query: { id: p.id } }, manager),
      fetch(`${[a, b, c][(i + 2) % 3]}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: `nobody-${i}`, password: "Not-The-Pass-1" }),
      }),
    ]);
    await Promise.all(calls);
    await Promise.all(processes.servers.map((s) => s.ctx.audit.flush()));
    stderr.mockRestore();
    const db = processes.servers[0]!.db;
    const after = Number((await db.query<{ n: string }>("select count(*)::text as n from audit_events"))[0]!.n);
    expect(after - before).toBeGreaterThanOrEqual(calls.length);
    const report = await verifyChain(db);
    expect(report.broken).toBeNull();
    expect(report.entries).toBe(after); // every entry in the chain: none written beside it, none from before it
  }, 120_000);
});

onPostgres("two processes starting the chain at once", () => {
  it("write one start entry between them", async () => {
    const { storage, drop } = await testStorage("postgres");
    // Migrated one after the other (migrations are not this test's subject), then both start the chain at once.
    const one = await openDatabase(storage);
    const two = await openDatabase(storage);
    try {
      await Promise.all([auditTrail(one).begin(), auditTrail(two).begin(), auditTrail(one).begin()]);
      const starts = await one.query("select seq from audit_events where action = 'audit.chainStart'");
      expect(starts).toHaveLength(1);
      expect((await verifyChain(one)).broken).toBeNull();
    } finally {
      await one.close();
      await two.close();
      await drop();
    }
  }, 60_000);
});
