import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import { startServer } from "../../simulator/server/server.ts";
import type { CountRecord } from "../../simulator/server/integrity/record.ts";
import type { IntegrityReport } from "../../simulator/server/integrity/pass.ts";
import { isopter } from "./harness.ts";

// `isopter check` (issue 33 item 5) on a PGlite DATA_DIR: the report per table, the counts compared with the record
// of the last clean shutdown (or not, and why), exit code 1 on damage; backups and restores write the record.
// (Damaged files on both databases: tests/server/durability-*.test.ts.)

let dir: string;
const clinic = () => join(dir, "clinic");
const recordFile = () => join(clinic(), "pglite.integrity.json");
const readRecord = () => JSON.parse(readFileSync(recordFile(), "utf8")) as CountRecord;
const env = { DATABASE_URL: "", DATA_DIR: "" };
const check = async (dataDir: string, json = false) => isopter(["check", "--data-dir", dataDir, ...(json ? ["--json"] : [])], { env });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "isopter-check-"));
  const server = await startServer({
    storage: { kind: "pglite", dataDir: join(clinic(), "pglite") },
    port: 0,
    webRoot: "/nonexistent-web-root",
  });
  await seedDemo(server.db, { password: "Check-Pass-1", headsets: 2, results: "fixtures" });
  // While it runs, the record says so: a crash from here on leaves counts that are not compared.
  expect(readRecord().state).toBe("running");
  await server.drain(1_000);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("isopter check", () => {
  it("after a clean shutdown: every table read and compared with the recorded counts, exit 0", async () => {
    const record = readRecord();
    expect(record).toMatchObject({ state: "clean", source: "shutdown" });
    expect(record.counts.measurements).toBeGreaterThan(0);
    const run = await check(clinic());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("counts compared with the last clean shutdown");
    // The measurements line: rows read through equal to the recorded count, pages, indexes checked, ok.
    const line = run.stdout.split("\n").find((l) => l.startsWith("measurements "))!;
    const [, rows, recorded, pages, indexes, found] = line.split(/\s+/);
    expect(Number(rows)).toBe(record.counts.measurements);
    expect(Number(recorded)).toBe(record.counts.measurements);
    expect(Number(pages)).toBeGreaterThan(1);
    expect(Number(indexes)).toBeGreaterThan(1);
    expect(found).toBe("ok");
    expect(run.stdout).toContain("OK: every table read through, its indexes checked by amcheck");
  }, 60_000);

  it("--json: the report with per-table findings, checksums on and amcheck loaded", async () => {
    const run = await check(clinic(), true);
    const report = JSON.parse(run.stdout) as IntegrityReport;
    expect(report).toMatchObject({ database: "pglite", checksums: true, amcheck: true, notes: [] });
    expect(report.tables.find((t) => t.table === "patients")).toMatchObject({ problems: [] });
  }, 60_000);

  it("a count that differs from the record is damage: exit 1, the table and both counts named in one line", async () => {
    const record = readRecord();
    try {
      writeFileSync(recordFile(), JSON.stringify({ ...record, counts: { ...record.counts, patients: record.counts.patients! + 3 } }));
      const run = await check(clinic());
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        new RegExp(
          `^patients .*holds ${record.counts.patients} rows; the last clean shutdown .* recorded ${record.counts.patients! + 3}`,
          "m",
        ),
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain("isopter restore <backup file> --data-dir <new DATA_DIR>");
    } finally {
      writeFileSync(recordFile(), JSON.stringify(record));
    }
  }, 60_000);

  it("after a crash (the record still says running) the counts are not compared, and the report says why", async () => {
    const record = readRecord();
    try {
      writeFileSync(recordFile(), JSON.stringify({ ...record, state: "running", counts: { ...record.counts, patients: 0 } }));
      const run = await check(clinic());
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("not compared: a server ran since the last clean shutdown");
    } finally {
      writeFileSync(recordFile(), JSON.stringify(record));
    }
  }, 60_000);

  it("a backup records the counts it read; a restore records the restored ones, and checks clean against them", async () => {
    const file = join(dir, "clinic.isopter");
    const backup = await isopter(["backup", "--out", file, "--data-dir", clinic()], { env });
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout).countRecord).toBe(`recorded in ${recordFile()}`);
    expect(readRecord()).toMatchObject({ state: "clean", source: "backup" });
    const restoredDir = join(dir, "restored");
    const restore = await isopter(["restore", file, "--data-dir", restoredDir], { env });
    expect(restore.code).toBe(0);
    const restored = JSON.parse(readFileSync(join(restoredDir, "pglite.integrity.json"), "utf8")) as CountRecord;
    expect(restored).toMatchObject({ state: "clean", source: "restore" });
    expect(restored.counts.measurements).toBe(readRecord().counts.measurements);
    const run = await check(restoredDir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("counts compared with the last restore");
  }, 120_000);

  it("a data directory that cannot be opened is one line and exit 1", async () => {
    writeFileSync(join(dir, "stray"), "x");
    const run = await check(join(dir, "stray"));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("DATA_DIR");
  }, 60_000);
});
