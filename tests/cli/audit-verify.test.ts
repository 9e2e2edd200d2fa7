import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../simulator/server/db/database.ts";
import { openDatabase, type Storage } from "../../simulator/server/db/open.ts";
import { startServer } from "../../simulator/server/server.ts";
import { asAdministrator } from "../server/audit-tools.ts";
import { testStorage, type Backend } from "../server/harness.ts";
import { isopter } from "./harness.ts";

// Issue 33 §3: "`isopter audit verify` walks the chain and names the first entry that was changed, removed or
// inserted", against the database `npm start` uses (a PGlite data directory, or PostgreSQL while servers run on it);
// and "the server checks the chain's tail at start and reports a break on /api/ready (ready, with a warning)".

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Some events: failed logins (no seed needed), written by the trail. */
const someEvents = async (storage: Storage) => {
  const server = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", worklistTickMs: 0 });
  for (let n = 0; n < 12; n++)
    await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: `nobody-${n}`, password: "Not-A-Pass-1" }),
    });
  await server.ctx.audit.flush();
  return server;
};

const suite = (backend: Backend) =>
  describe(`isopter audit verify on ${backend}`, () => {
    it("holds on a written trail; names an edited, a deleted and an inserted entry (exit 6); the restarted server warns on /api/ready", async () => {
      const dataDir = backend === "pglite" ? mkdtempSync(join(tmpdir(), "isopter-audit-")) : undefined;
      if (dataDir) dirs.push(dataDir);
      const pg = backend === "postgres" ? await testStorage("postgres") : undefined;
      const storage: Storage = pg ? pg.storage : { kind: "pglite", dataDir: join(dataDir!, "pglite") };
      const where = pg ? ["--database-url", (storage as { url: string }).url] : ["--data-dir", dataDir!];
      // PostgreSQL: verified while the server runs; PGlite: its directory is locked, so between runs.
      let server = await someEvents(storage);
      if (!pg) await server.close();
      const verify = () => isopter(["audit", "verify", ...where]);
      const holds = await verify();
      expect(holds.code, holds.stderr).toBe(0);
      expect(holds.stdout).toMatch(/the chain holds: \d+ entries.*last entry \d+ at position \d+, hash [0-9a-f]{64}/);

      const tamper = async (work: (db: Database) => Promise<void>) => {
        if (pg) return work(server.db);
        const db = await openDatabase(storage);
        try {
          await work(db);
        } finally {
          await db.close();
        }
      };
      const rows = async (db: Database) =>
        (await db.query<{ id: string }>("select id from audit_events where seq is not null order by seq")).map((r) => Number(r.id));
      let ids: number[] = [];
      let name: unknown;
      await tamper(async (db) => {
        ids = await rows(db);
        name = (await db.query("select actor_name from audit_events where id = $1", [ids[5]]))[0]!.actor_name;
        await asAdministrator(db, "update audit_events set actor_name = 'someone else' where id = $1", [ids[5]]);
      });
      const edited = await verify();
      expect([edited.code, edited.stderr]).toEqual([6, expect.stringContaining(`changed, entry ${ids[5]}`)]);

      // The server started on it checks the chain's tail: ready, with the break as a warning, and the log says so.
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      if (!pg) server = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", worklistTickMs: 0 });
      else {
        await server.close();
        server = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", worklistTickMs: 0 });
      }
      const logged = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("audit_chain_broken"));
      stderr.mockRestore();
      const ready = await fetch(`${server.url}/api/ready`);
      const body = (await ready.json()) as { data: { status: string; warnings: string[] } };
      expect([ready.status, body.data.status]).toEqual([200, "ready"]);
      expect(body.data.warnings).toEqual([expect.stringContaining(`entry ${ids[5]} `)]);
      expect(logged).toHaveLength(1);
      if (!pg) await server.close();

      let deleted: unknown;
      await tamper(async (db) => {
        await asAdministrator(db, "update audit_events set actor_name = $2 where id = $1", [ids[5], name]);
        [deleted] = await db.query("select * from audit_events where id = $1", [ids[8]]);
        await asAdministrator(db, "delete from audit_events where id = $1", [ids[8]]);
      });
      const removed = await verify();
      expect([removed.code, removed.stderr]).toEqual([
        6,
        expect.stringMatching(new RegExp(`position 8 was removed .*removed, entry ${ids[9]}\\)`)),
      ]);

      // The deleted entry put back as it was, and a forged one added beside the trail.
      let forged = 0;
      await tamper(async (db) => {
        await asAdministrator(db, "insert into audit_events select * from jsonb_populate_record(null::audit_events, $1::jsonb)", [
          JSON.stringify(deleted),
        ]);
        await db.query(
          "insert into audit_events (organisation_id, at, actor_kind, action, outcome) values (null, $1, 'user', 'login', 'success')",
          [new Date().toISOString()],
        );
        forged = Number((await db.query<{ id: string }>("select max(id) as id from audit_events"))[0]!.id);
      });
      const added = await verify();
      expect([added.code, added.stderr]).toEqual([6, expect.stringContaining(`inserted, entry ${forged})`)]);

      // The last entries removed together: the chain alone still holds; the tail noted at the first run does not.
      const noted = /--noted-tail (\d+:[0-9a-f]{64})/.exec(holds.stdout)![1]!;
      await tamper(async (db) => {
        await asAdministrator(db, "delete from audit_events where id = $1", [forged]);
        await asAdministrator(db, "delete from audit_events where seq >= $1", [Number(noted.split(":")[0]) - 2]);
      });
      if (!pg) expect((await verify()).code).toBe(0);
      const truncated = await isopter(["audit", "verify", ...where, "--noted-tail", noted]);
      expect([truncated.code, truncated.stderr]).toEqual([
        6,
        expect.stringMatching(/position \d+ (and those after it were removed|no longer has the noted hash)/),
      ]);
      expect((await isopter(["audit", "verify", ...where, "--noted-tail", "12:abc"])).code).toBe(2);
      if (pg) await server.close();
      await pg?.drop();
    }, 180_000);
  });

suite("pglite");
if (process.env.TEST_DATABASE_URL) suite("postgres");
else describe("isopter audit verify on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
