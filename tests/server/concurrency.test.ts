import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { measurementConfigWith } from "../../core/rules/defaults.ts";
import type { MeasurementBody } from "../../core/model/measurement.ts";
import { demoResult } from "../../simulator/server/demo/results.ts";
import { openPglite } from "../../simulator/server/db/pglite.ts";
import { openPostgres } from "../../simulator/server/db/postgres.ts";
import { migrate } from "../../simulator/server/db/migrate.ts";
import type { Database } from "../../simulator/server/db/database.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { call, login, ok, startTestServer, testStorage, type Backend, type TestServer } from "./harness.ts";

// Issue 16 point 2, "concurrent writers are safe": the same uniqueId registered 10 times at once, the same result
// uploaded 4 times at once, the same e-mail invited 4 times at once, the same stand-alone result uploaded 4 times at
// once. The database holds one of each; the others answer as the seeds say a later writer is answered (409 with an
// error type; the same answer for the same upload), never 500. And migration 006 cleans up duplicates stored before.
// Runs on PGlite and PostgreSQL (where requests really run side by side) and prints the duplicates found.

const ROUNDS = 20;
const migrationsDir = fileURLToPath(new URL("../../simulator/server/migrations/", import.meta.url));

const concurrencySuite = (backend: Backend) =>
  describe(`concurrent writers on ${backend}`, () => {
    let server: TestServer;
    let token: string;
    let deviceSn: string;
    const figures: string[] = [];

    beforeAll(async () => {
      server = await startTestServer(backend);
      token = await login(server.url, "manager");
      deviceSn = (await ok(server.url, "device.all", {}, token))[0]!.deviceSn;
    }, 180_000);
    afterAll(async () => {
      console.log(`[concurrency ${backend}] ${figures.join("; ")}`);
      await server?.drop();
    });

    const count = async (sql: string, params: unknown[]) => (await server.db.query<{ n: number }>(sql, params))[0]!.n;
    const statuses = (answers: Array<{ status: number; responseType: string | undefined }>) =>
      answers.map((a) => `${a.status} ${a.responseType ?? ""}`.trim()).sort();

    it("the same uniqueId registered 10 times at once: one patient, the others 409 conflict naming body.uniqueId", async () => {
      let duplicates = 0;
      let fiveXX = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const uniqueId = `RACE-${newId().slice(0, 8)}`;
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            call(
              server.url,
              "patient.register",
              { body: { name: `Race ${i}`, uniqueId, gender: 0, lang: "en", birthdate: "1970-01-01" } },
              token,
            ),
          ),
        );
        const stored = await count("select count(*)::int as n from patients where body->>'uniqueId' = $1", [uniqueId]);
        duplicates += stored - 1;
        fiveXX += answers.filter((a) => a.status >= 500).length;
        expect(stored).toBe(1);
        expect(statuses(answers)).toEqual(["200", ...Array(9).fill("409 conflict")]);
        expect(answers.filter((a) => a.status === 409).every((a) => a.error?.field === "body.uniqueId")).toBe(true);
      }
      figures.push(`uniqueId x10 over ${ROUNDS} rounds: ${duplicates} duplicates, ${fiveXX} 5xx`);
    }, 300_000);

    it("the same result uploaded 4 times at once: stored once, every upload answers the same measurement; different results at once: one wins, the others 409", async () => {
      let accepted = 0;
      let fiveXX = 0;
      let mismatched = 0;
      const patient = await ok(
        server.url,
        "patient.register",
        { body: { name: "Upload Race", uniqueId: `UR-${newId().slice(0, 8)}`, gender: 1, lang: "en", birthdate: "1950-02-02" } },
        token,
      );
      for (let round = 0; round < ROUNDS; round++) {
        const [m] = await ok(server.url, "perimetry.register", { body: measurementBody(patient.id, deviceSn) }, token);
        const result = demoResult({
          measurementId: m!.id,
          patientId: patient.id,
          takenAt: new Date(Date.UTC(2026, 0, 1, 0, round)).toISOString(),
          ageYears: 75,
          yearsIntoCourse: 1,
          course: "early-glaucoma",
          eye: Eye.Right,
          pattern: Pattern.P24_2,
          strategy: Strategy.DS,
          deviceAlias: "Room 1",
          seed: round,
        });
        const same = await Promise.all(
          Array.from({ length: 4 }, () =>
            call(server.url, "perimetry.upload", { body: { deviceSn, measurementId: m!.id, standaloneId: null, result } }, token),
          ),
        );
        fiveXX += same.filter((a) => a.status >= 500).length;
        expect(statuses(same)).toEqual(["200", "200", "200", "200"]);
        mismatched +=
          new Set(same.map((a) => JSON.stringify({ id: a.data.id, result: a.data.result, updatedAt: a.data.updatedAt }))).size - 1;
        expect(new Set(same.map((a) => JSON.stringify(a.data))).size).toBe(1);

        const [m2] = await ok(server.url, "perimetry.register", { body: measurementBody(patient.id, deviceSn) }, token);
        const different = await Promise.all(
          [1, 2, 3, 4].map((k) =>
            call(
              server.url,
              "perimetry.upload",
              {
                body: { deviceSn, measurementId: m2!.id, standaloneId: null, result: { ...result, measurementId: m2!.id, meanDefect: -k } },
              },
              token,
            ),
          ),
        );
        fiveXX += different.filter((a) => a.status >= 500).length;
        accepted += different.filter((a) => a.status === 200).length - 1;
        expect(statuses(different)).toEqual(["200", "409 conflict", "409 conflict", "409 conflict"]);
        const stored = (await ok(server.url, "perimetry.get", { query: { id: m2!.id } }, token)).result!;
        expect(different.find((a) => a.status === 200)!.data.result!.meanDefect).toBe(stored.meanDefect);
      }
      figures.push(
        `result upload x4 over ${ROUNDS} rounds: ${accepted} extra results accepted, ${mismatched} differing answers to the same upload, ${fiveXX} 5xx`,
      );
    }, 300_000);

    it("the same stand-alone result uploaded 4 times at once makes one measurement, and all four answer it", async () => {
      let duplicates = 0;
      const patient = await ok(
        server.url,
        "patient.register",
        { body: { name: "Standalone Race", uniqueId: `SR-${newId().slice(0, 8)}`, gender: 1, lang: "en", birthdate: "1952-03-03" } },
        token,
      );
      const { patientId: _p, deviceSn: _d, notes: _n, ...config } = measurementBody(patient.id, deviceSn);
      const standalone = (await ok(
        server.url,
        "device.standalone",
        { query: { deviceSn }, body: { ...config, patientId: patient.id } },
        token,
      ))!;
      for (let round = 0; round < ROUNDS / 2; round++) {
        const result = demoResult({
          measurementId: "x",
          patientId: patient.id,
          takenAt: new Date(Date.UTC(2026, 1, 1, 0, round)).toISOString(),
          ageYears: 74,
          yearsIntoCourse: 1,
          course: "early-glaucoma",
          eye: Eye.Right,
          pattern: Pattern.P24_2,
          strategy: Strategy.DS,
          deviceAlias: "Room 1",
          seed: 100 + round,
        });
        const before = (await ok(server.url, "perimetry.all", { query: { patientId: patient.id } }, token)).length;
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            call(server.url, "perimetry.upload", { body: { deviceSn, measurementId: null, standaloneId: standalone.id, result } }, token),
          ),
        );
        const after = (await ok(server.url, "perimetry.all", { query: { patientId: patient.id } }, token)).length;
        duplicates += after - before - 1;
        expect(statuses(answers)).toEqual(["200", "200", "200", "200"]);
        expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
        expect(after - before).toBe(1);
      }
      await call(server.url, "device.standalone", { query: { deviceSn }, body: null }, token);
      figures.push(`stand-alone upload x4 over ${ROUNDS / 2} rounds: ${duplicates} duplicates`);
    }, 300_000);

    it("the same e-mail invited 4 times at once: one invitation, the others 409 already_invited", async () => {
      let duplicates = 0;
      let fiveXX = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const email = `race-${newId().slice(0, 8)}@clinic.test`;
        const answers = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            call(server.url, "user.invite", { body: { emails: [i % 2 ? email.toUpperCase() : email], role: "user" } }, token),
          ),
        );
        const stored = await count("select count(*)::int as n from users where lower(email) = $1", [email]);
        duplicates += stored - 1;
        fiveXX += answers.filter((a) => a.status >= 500).length;
        expect(stored).toBe(1);
        expect(statuses(answers)).toEqual(["200", "409 already_invited", "409 already_invited", "409 already_invited"]);
      }
      figures.push(`invitation x4 over ${ROUNDS} rounds: ${duplicates} duplicates, ${fiveXX} 5xx`);
    }, 300_000);
  });

/** A fresh database with the migrations before 006 applied, duplicates written, then every migration. */
const cleanupSuite = (backend: Backend) =>
  it(`migration 006 cleans up duplicates stored before it, then enforces uniqueness (${backend})`, async () => {
    const { storage, drop } = await testStorage(backend);
    const db: Database = storage.kind === "postgres" ? await openPostgres(storage.url) : await openPglite(undefined);
    try {
      await db.exec("create table schema_migrations (name text primary key, applied_at text not null)");
      for (const file of readdirSync(migrationsDir)
        .filter((f) => f.endsWith(".sql") && f < "006")
        .sort()) {
        await db.exec(readFileSync(migrationsDir + file, "utf8"));
        await db.query("insert into schema_migrations values ($1, 'test')", [file]);
      }
      const t = "2026-01-01T00:00:00.000Z";
      await db.query("insert into organisations (id, name, created_at) values ('o1', 'Clinic', $1), ('o2', 'Other', $1)", [t]);
      const patient = (id: string, org: string, uid: string, at: string) =>
        db.query(
          "insert into patients (id, organisation_id, name, birthdate, body, created_at, updated_at) values ($1, $2, 'P', '1970-01-01', $3, $4, $4)",
          [id, org, JSON.stringify({ uniqueId: uid, gender: 0, lang: "en" }), at],
        );
      await patient("p1", "o1", "A-1", "2026-01-01T00:00:00Z");
      await patient("p2", "o1", "A-1", "2026-01-02T00:00:00Z");
      await patient("p3", "o1", "A-1", "2026-01-03T00:00:00Z");
      await patient("p4", "o2", "A-1", "2026-01-01T00:00:00Z"); // another organisation may use the same ID
      const user = (id: string, email: string, state: string, at: string) =>
        db.query("insert into users (id, organisation_id, email, role, state, created_at) values ($1, 'o1', $2, 'user', $3, $4)", [
          id,
          email,
          state,
          at,
        ]);
      await user("u1", "ann@clinic.test", "active", "2026-01-01T00:00:00Z");
      await user("u2", "ANN@clinic.test", "invited", "2026-01-02T00:00:00Z");
      await user("u3", "bob@clinic.test", "invited", "2026-01-01T00:00:00Z");
      await user("u4", "Bob@clinic.test", "invited", "2026-01-02T00:00:00Z");
      await user("u5", "cy@clinic.test", "active", "2026-01-01T00:00:00Z");
      await user("u6", "CY@clinic.test", "active", "2026-01-02T00:00:00Z");

      expect(await migrate(db)).toContain("006_unique_constraints.sql");

      const uids = await db.query<{ id: string; uid: string }>("select id, body->>'uniqueId' as uid from patients order by id");
      expect(uids).toEqual([
        { id: "p1", uid: "A-1" },
        { id: "p2", uid: "A-1 (duplicate 1)" },
        { id: "p3", uid: "A-1 (duplicate 2)" },
        { id: "p4", uid: "A-1" },
      ]);
      const users = await db.query<{ id: string; email: string }>("select id, email from users order by id");
      expect(users).toEqual([
        { id: "u1", email: "ann@clinic.test" },
        { id: "u3", email: "bob@clinic.test" },
        { id: "u5", email: "cy@clinic.test" },
        { id: "u6", email: "CY@clinic.test.duplicate-1" },
      ]);
      await expect(patient("p5", "o1", "A-1", t)).rejects.toMatchObject({ code: "23505" });
      await expect(user("u7", "BOB@clinic.test", "invited", t)).rejects.toMatchObject({ code: "23505" });
      console.log(`[concurrency ${backend}] migration 006: duplicates found before: 2 patients, 3 users; after: 0`);
    } finally {
      await db.close();
      await drop();
    }
  }, 120_000);

const measurementBody = (patientId: string, deviceSn: string): MeasurementBody =>
  measurementConfigWith({ patientId, deviceSn, displayName: "Race", eye: Eye.Right, pattern: Pattern.P24_2, strategy: Strategy.DS });

concurrencySuite("pglite");
describe("migration 006 on pglite", () => cleanupSuite("pglite"));
if (process.env.TEST_DATABASE_URL) {
  concurrencySuite("postgres");
  describe("migration 006 on postgres", () => cleanupSuite("postgres"));
} else describe("concurrent writers on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
