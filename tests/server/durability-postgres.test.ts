import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import { startServer } from "../../simulator/server/server.ts";
import { call, DEMO_PASSWORD, login, raw } from "./harness.ts";
import type { IntegrityReport } from "../../simulator/server/integrity/pass.ts";
import { damageFile, durabilityCases, isopterCheck, root, targets, type Workbench } from "./durability-suite.ts";

// The durability cases on PostgreSQL: a throwaway cluster of this suite's own (scripts/pg-throwaway.sh, data checksums
// on, a free port), since its files are damaged while it is stopped. The clinic database is made once and shut down
// cleanly (its counts recorded in integrity_counts); each case is `create database ... template clinic`, its file
// found with pg_relation_filepath, then the cluster stopped, the file damaged and the cluster started again.

const hasPostgres =
  existsSync("/usr/lib/postgresql") &&
  execFileSync("bash", ["-c", "ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null || true"]).toString().trim() !== "";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const cluster = (...args: string[]) =>
  execFileSync("bash", ["scripts/pg-throwaway.sh", ...args], { cwd: root })
    .toString()
    .trim();

let dir: string;
let port: number;
let admin: string;
let bench: Workbench;

const urlOf = (database: string) => {
  const u = new URL(admin);
  u.pathname = `/${database}`;
  return u.toString();
};

const sql = async <R extends pg.QueryResultRow>(database: string, text: string, params: unknown[] = []) => {
  const c = new pg.Client({ connectionString: urlOf(database) });
  await c.connect();
  try {
    return (await c.query<R>(text, params)).rows;
  } finally {
    await c.end();
  }
};

if (hasPostgres) {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "isopter-durability-pg-"));
    port = await freePort();
    admin = cluster("start", dir, String(port));
    await sql("postgres", "create database clinic");
    const server = await startServer({ storage: { kind: "postgres", url: urlOf("clinic") }, port: 0, webRoot: "/nonexistent-web-root" });
    await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
    const token = await login(server.url, "manager");
    const found = await targets(server.db);
    await server.drain(1_000); // the last process leaving: the counts are recorded
    bench = {
      table: found.table.name,
      index: found.index.name,
      token,
      async copy(label, damage) {
        const database = `case_${label.replace(/-/g, "_")}`;
        await sql("postgres", `create database ${database} template clinic`);
        if (damage) {
          const [file] = await sql<{ path: string }>(database, "select pg_relation_filepath($1::regclass) as path", [
            found[damage.what].name,
          ]);
          cluster("pause", dir);
          try {
            damageFile(join(dir, "data", file!.path), damage.how);
          } finally {
            cluster("resume", dir, String(port));
          }
        }
        return { storage: { kind: "postgres", url: urlOf(database) }, checkArgs: ["--database-url", urlOf(database)] };
      },
    };
  }, 240_000);

  afterAll(() => {
    if (dir) cluster("stop", dir);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe("durability on PostgreSQL: damaged files are refused at start and found by isopter check", () => {
    it("the throwaway cluster has data checksums on (initdb --data-checksums)", async () => {
      expect((await sql<{ data_checksums: string }>("postgres", "show data_checksums"))[0]!.data_checksums).toBe("on");
    });
    durabilityCases("PostgreSQL", () => bench, true);

    it("a role that may not run amcheck (not a superuser, no grant): indexes noted as not checked, no damage claimed", async () => {
      const copy = await bench.copy("reader");
      const database = new URL((copy.storage as { url: string }).url).pathname.slice(1);
      await sql(
        "postgres",
        "do $$ begin if not exists (select from pg_roles where rolname = 'reader') then create role reader login; end if; end $$",
      );
      await sql(database, "grant select on all tables in schema public to reader");
      const reader = new URL(urlOf(database));
      reader.username = "reader";
      const check = await isopterCheck(["--database-url", reader.toString(), "--json"]);
      expect(check.code, check.stderr).toBe(0);
      const report = JSON.parse(check.stdout) as IntegrityReport;
      const table = report.tables.find((t) => t.table === bench.table)!;
      expect(table).toMatchObject({ problems: [], indexes: 0 });
      expect(table.notes.join("; ")).toContain(`index ${bench.index} not checked (permission denied for function bt_index_check)`);
    }, 120_000);

    it("several processes on one database: only the last to leave records the counts; a backup while one runs records none", async () => {
      const copy = await bench.copy("processes");
      const database = new URL((copy.storage as { url: string }).url).pathname.slice(1);
      const state = async () =>
        (await sql<{ record: { state: string; source: string } }>(database, "select record from integrity_counts"))[0]!.record;
      const first = await startServer({ storage: copy.storage, port: 0, webRoot: "/nonexistent-web-root" });
      const second = await startServer({ storage: copy.storage, port: 0, webRoot: "/nonexistent-web-root" });
      expect(await state()).toMatchObject({ state: "running" });
      const backup = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["cli/bin.mjs", "backup", "--out", join(dir, "processes.isopter"), "--database-url", urlOf(database)],
          { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "" } },
          (e, stdout) => (e ? reject(e) : resolve(stdout)),
        ),
      );
      expect(JSON.parse(backup).countRecord).toBe("not recorded: a server is running on this database");
      await first.drain(1_000);
      expect(await state()).toMatchObject({ state: "running" }); // the second still writes
      await second.drain(1_000);
      expect(await state()).toMatchObject({ state: "clean", source: "shutdown" });
    }, 120_000);

    it("damage that appears while a server runs: the read answers 503 saying so (not a bare 500), then nothing more is served", async () => {
      const copy = await bench.copy("runtime");
      const server = await startServer({ storage: copy.storage, port: 0, webRoot: "/nonexistent-web-root" });
      try {
        expect((await call(server.url, "perimetry.recent", {}, bench.token)).status).toBe(200);
        const database = new URL((copy.storage as { url: string }).url).pathname.slice(1);
        const [file] = await sql<{ path: string }>(database, "select pg_relation_filepath($1::regclass) as path", [bench.table]);
        cluster("pause", dir);
        try {
          const path = join(dir, "data", file!.path);
          writeFileSync(path, randomBytes(statSync(path).size)); // every page garbled: any row read fails its checksum
        } finally {
          cluster("resume", dir, String(port));
        }
        // The pool reconnects (503 "not reachable" meanwhile); then the read meets the damage.
        let recent = await call(server.url, "perimetry.recent", {}, bench.token);
        for (let i = 0; i < 100 && !recent.error?.message.includes("damaged"); i++) {
          expect(recent.status).toBe(503);
          await new Promise((r) => setTimeout(r, 100));
          recent = await call(server.url, "perimetry.recent", {}, bench.token);
        }
        expect(recent.status).toBe(503);
        expect(recent.responseType).toBe("unavailable");
        expect(recent.error?.message).toBe("The database is damaged: stop the server, run isopter check, and restore the last backup");
        // From then on nothing is served, not even what reads other tables, and readiness says why.
        const patients = await call(server.url, "patient.all", {}, bench.token);
        expect([patients.status, patients.error?.message]).toEqual([
          503,
          expect.stringContaining("is damaged: a request met invalid page"),
        ]);
        const ready = await raw(server.url, "GET", "ready");
        expect([ready.status, (ready.json.data as { message: string }).message]).toEqual([503, patients.error?.message]);
      } finally {
        await server.close();
      }
      // The shutdown recorded no counts of the damaged database: the record still says a server ran.
      const database = new URL((copy.storage as { url: string }).url).pathname.slice(1);
      const [row] = await sql<{ record: { state: string } }>(database, "select record from integrity_counts");
      expect(row!.record.state).toBe("running");
    }, 120_000);
  });
} else describe("durability on PostgreSQL", () => it.skip("needs PostgreSQL's server binaries (initdb)", () => undefined));
