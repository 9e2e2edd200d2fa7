import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import { startServer } from "../../simulator/server/server.ts";
import { DEMO_PASSWORD, login } from "./harness.ts";
import { damageFile, durabilityCases, targets, type Workbench } from "./durability-suite.ts";

// The durability cases on PGlite: the clinic's DATA_DIR (its PGlite directory and, beside it, the count record
// pglite.integrity.json) copied per case, a file of the copy damaged. The table cut to half is the issue's own
// reproduction ("the largest table file of a PGlite data directory was cut to half its size. The server started").

let dir: string;
let bench: Workbench;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "isopter-durability-"));
  const clinic = join(dir, "clinic");
  const server = await startServer({
    storage: { kind: "pglite", dataDir: join(clinic, "pglite") },
    port: 0,
    webRoot: "/nonexistent-web-root",
  });
  await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
  const token = await login(server.url, "manager");
  const found = await targets(server.db);
  await server.drain(1_000); // a clean shutdown: the counts are recorded
  bench = {
    table: found.table.name,
    index: found.index.name,
    token,
    async copy(label, damage) {
      const dataDir = join(dir, label);
      cpSync(clinic, dataDir, { recursive: true });
      if (damage) damageFile(join(dataDir, "pglite", found[damage.what].path), damage.how);
      return { storage: { kind: "pglite", dataDir: join(dataDir, "pglite") }, checkArgs: ["--data-dir", dataDir] };
    },
  };
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("durability on PGlite: damaged files are refused at start and found by isopter check", () => {
  durabilityCases("PGlite", () => bench, false);
});
