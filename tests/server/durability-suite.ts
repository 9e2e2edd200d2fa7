import { execFile } from "node:child_process";
import { closeSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import type { Storage } from "../../simulator/server/db/open.ts";
import type { Queryable } from "../../simulator/server/db/database.ts";
import { startServer } from "../../simulator/server/server.ts";
import { StartupError } from "../../simulator/server/db/data-dir.ts";
import { call, raw } from "./harness.ts";

// Issue 33 item 5, done when: "A durability test cuts, zeroes and garbles table and index files of both databases;
// each is refused at start or found by `isopter check`, never served." The shared part of durability-pglite and
// durability-postgres: a clinic database made once and shut down cleanly (its row counts recorded), then per case a
// copy of it whose largest table file or that table's largest index file is damaged while no server runs, and then:
// the start is refused with one line naming the table and the restore command, `isopter check` exits 1 naming it, and
// a server that listens before its pass is done (the pass given no time) answers 503 with that line to every call,
// among them the home page's recent tests (perimetry/recent), never data and never a bare 500.

export const root = fileURLToPath(new URL("../../", import.meta.url));
export type Damage = "cut" | "zero" | "garble";
const PAGE = 8192;

/** Cut: the file to half its pages. Zero / garble: a quarter of its pages from the middle, with zeros or random bytes. */
export const damageFile = (file: string, how: Damage) => {
  const pages = Math.max(1, Math.floor(statSync(file).size / PAGE));
  if (how === "cut") return truncateSync(file, pages > 1 ? Math.floor(pages / 2) * PAGE : PAGE / 2);
  const bytes =
    how === "zero" ? Buffer.alloc(Math.max(1, Math.floor(pages / 4)) * PAGE) : randomBytes(Math.max(1, Math.floor(pages / 4)) * PAGE);
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, bytes, 0, bytes.length, Math.floor(pages / 2) * PAGE);
  } finally {
    closeSync(fd);
  }
};

/** The largest table of the public schema and its largest index, with their files relative to the data directory. */
export const targets = async (q: Queryable) => {
  const [table] = await q.query<{ name: string; path: string }>(
    `select c.relname as name, pg_relation_filepath(c.oid) as path from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' order by pg_relation_size(c.oid) desc, c.relname limit 1`,
  );
  const [index] = await q.query<{ name: string; path: string }>(
    `select ic.relname as name, pg_relation_filepath(ic.oid) as path from pg_index i join pg_class ic on ic.oid = i.indexrelid
     join pg_class tc on tc.oid = i.indrelid join pg_namespace n on n.oid = tc.relnamespace
     where n.nspname = 'public' and tc.relname = $1 order by pg_relation_size(ic.oid) desc, ic.relname limit 1`,
    [table!.name],
  );
  return { table: table!, index: index! };
};

/** `isopter check` as a user runs it. */
export const isopterCheck = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ["cli/bin.mjs", "check", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "" }, maxBuffer: 1 << 24 },
      (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

export interface DamagedCopy {
  readonly storage: Storage;
  /** `isopter check`'s options reaching it. */
  readonly checkArgs: string[];
}

export interface Workbench {
  /** The largest table and its largest index (names), found on the clinic database. */
  readonly table: string;
  readonly index: string;
  /** A manager's access token on the clinic database (its session row is copied with it). */
  readonly token: string;
  /** A copy of the clinic database, `damage` done to the table's or the index's file while no server runs. */
  copy(label: string, damage?: { what: "table" | "index"; how: Damage }): Promise<DamagedCopy>;
}

const start = (storage: Storage, integrityBudgetMs?: number) =>
  startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", ...(integrityBudgetMs === undefined ? {} : { integrityBudgetMs }) });

/** The cases: every damage to both files, refused at start and found by `isopter check`; and the intact copy served. */
export const durabilityCases = (label: string, bench: () => Workbench, deferrable: boolean) => {
  it(`${label}: an intact copy starts, passes and serves the home page's recent tests; isopter check finds nothing`, async () => {
    const w = bench();
    const copy = await w.copy("intact");
    const server = await start(copy.storage);
    try {
      expect((await raw(server.url, "GET", "ready")).status).toBe(200);
      const recent = await call(server.url, "perimetry.recent", {}, w.token);
      expect(recent.status).toBe(200);
      expect(recent.data.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    const check = await isopterCheck(copy.checkArgs);
    expect(check.stdout).toMatch(new RegExp(`^${w.table}\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s+ok`, "m"));
    expect(check.stdout).toContain("OK: every table read through, its indexes checked by amcheck");
    expect(check.code).toBe(0);
  }, 120_000);

  for (const what of ["table", "index"] as const)
    for (const how of ["cut", "zero", "garble"] as const)
      it(`${label}: the ${what} file ${how === "cut" ? "cut to half" : how === "zero" ? "partly zeroed" : "partly garbled"}: refused at start, found by isopter check`, async () => {
        const w = bench();
        const copy = await w.copy(`${what}-${how}`, { what, how });
        const refused = await start(copy.storage).then(
          async (s) => {
            await s.close();
            return undefined;
          },
          (e: unknown) => e,
        );
        expect(refused).toBeInstanceOf(StartupError);
        const line = (refused as Error).message;
        console.log(`[durability ${label}] ${what} ${how}: ${line}`);
        expect(line).not.toContain("\n");
        expect(line).toContain(`is damaged: table ${w.table} `);
        if (what === "index") expect(line).toContain(`index ${w.index} is damaged`);
        expect(line).toMatch(/isopter restore <backup file> --(data-dir|database-url) /);
        const check = await isopterCheck(copy.checkArgs);
        expect(check.code).toBe(1);
        expect(check.stdout).toMatch(new RegExp(`^${w.table}\\s.*(holds|cannot|damaged|finds)`, "m"));
        expect(check.stdout).toContain(`DAMAGED: ${w.table}`);
        expect(check.stderr.trim().split("\n")).toHaveLength(1);
      }, 120_000);

  // PGlite runs each statement on the event loop, so its pass ends before the start goes on (no timer fires meanwhile):
  // only PostgreSQL's pass can still be running when the server listens.
  if (deferrable)
    it(`${label}: a server whose pass ends after it listens serves nothing from the damaged database (503 with the line, no 500)`, async () => {
      const w = bench();
      const copy = await w.copy("deferred", { what: "table", how: "garble" });
      const server = await start(copy.storage, 0);
      try {
        const answers: number[] = [];
        let ready = await raw(server.url, "GET", "ready");
        for (let i = 0; i < 300 && !String((ready.json.data as { message?: string })?.message).includes("is damaged"); i++) {
          answers.push(ready.status, (await call(server.url, "perimetry.recent", {}, w.token)).status);
          await new Promise((r) => setTimeout(r, 100));
          ready = await raw(server.url, "GET", "ready");
        }
        expect(ready.status).toBe(503);
        expect((ready.json.data as { message: string }).message).toContain(`table ${w.table}`);
        const recent = await call(server.url, "perimetry.recent", {}, w.token);
        expect(recent.status).toBe(503);
        expect(recent.responseType).toBe("unavailable");
        expect(recent.error?.message).toContain(`is damaged: table ${w.table}`);
        // While the pass ran, nothing was served either.
        expect(answers.every((s) => s === 503)).toBe(true);
      } finally {
        await server.close();
      }
    }, 120_000);
};
