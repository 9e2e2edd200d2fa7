import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportContext } from "../../cli/export/context.ts";
import { opvFile } from "../../cli/export/dicom.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { DEMO_PASSWORD, ok, login, startTestServer, type TestServer } from "../server/harness.ts";
import { humphreyOpv } from "../import/humphrey-opv.ts";
import { sampleMeasurement, samplePatient } from "./fixtures.ts";
import { isopter, tempHome } from "./harness.ts";

// `isopter import FILE|DIR...` (issue 29) against the simulator's server: "each of these is refused with a line naming
// the file or item and the reason, while the rest goes on ... The command exits non-zero when any file failed (keeping
// the CLI's documented exit codes) and its summary counts them"; "--dry-run says per file what would happen (matched,
// created, duplicate, refused and why) and writes nothing".

let server: TestServer;
let home: string;
let folder: string;
const env = () => ({ ISOPTER_HOME: home });

beforeAll(async () => {
  server = await startTestServer("pglite");
  // The organisation's name makes the Isopter files' patient IDs its own. Read as a user: one session per user, and
  // the manager's is the CLI's.
  const organisation = await ok(server.url, "organisation.current", {}, await login(server.url, "user"));
  home = tempHome();
  const run = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(run.code).toBe(0);
  folder = mkdtempSync(join(tmpdir(), "isopter-import-cli-"));
  mkdirSync(join(folder, "hfa"));
  const patient = { ...samplePatient(501), name: "Nils Importer", uniqueId: "CLI-IMP-1" };
  const context = exportContext(organisation, { timeZone: "UTC" });
  for (let k = 0; k < 2; k++)
    writeFileSync(join(folder, `isopter-${k}.dcm`), opvFile(exportRecord(patient, sampleMeasurement(patient, k))!, context));
  writeFileSync(
    join(folder, "hfa", "field.dcm"),
    humphreyOpv({ patient: { id: "CLI-IMP-1", name: "Importer^Nils", birthDate: patient.birthdate.replace(/-/g, ""), sex: "M" } }),
  );
  writeFileSync(join(folder, "notes.txt"), "not a field\n");
}, 120_000);
afterAll(async () => {
  await server?.drop();
});

describe("isopter import", () => {
  // Files in name order; the dry run sees the patient the first file would create, as the import would.
  it("--dry-run says per file what would happen and writes nothing; a file no reader takes is refused, the rest goes on (exit 1)", async () => {
    const run = await isopter(["import", folder, "--dry-run"], { env: env() });
    console.log(run.stderr);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines).toContain("isopter-0.dcm: would import");
    expect(run.stdout).toMatch(
      /isopter-0\.dcm: would import\n {2}SOP Instance [\d.]+: would import 24-2, O[DS], \d{4}-\d\d-\d\d, Isopter VR headset perimeter · SORS -> Nils Importer \(CLI-IMP-1, matched by patient ID\)/,
    );
    expect(run.stdout).toMatch(
      /hfa\/field\.dcm: would import\n {2}SOP Instance [\d.]+: would import 24-2, OD, .*Carl Zeiss Meditec HFA3 860 · SITA-Standard -> Nils Importer \(CLI-IMP-1, would be created\)/,
    );
    expect(lines).toContain(
      "notes.txt: refused: not a file Isopter imports: neither DICOM (Part 10), a FHIR Bundle (JSON) nor a visualFields CSV",
    );
    expect(lines).toContain("4 files: 3 would be imported (3 fields, 1 patient to create), 0 duplicates, 1 refused");
    expect(run.stderr).toContain("1 of 4 files refused (named above)");
    const token = await login(server.url, "user");
    expect((await ok(server.url, "patient.all", {}, token)).some((p) => p.uniqueId === "CLI-IMP-1")).toBe(false);
  });

  it("imports, then the same folder again is all duplicates; --json gives the summary and every report", async () => {
    const first = await isopter(["import", join(folder, "isopter-0.dcm"), join(folder, "isopter-1.dcm"), join(folder, "hfa"), "--json"], {
      env: env(),
    });
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ dryRun: false, files: 3, imported: 3, duplicates: 0, refused: 0, fields: 3, patientsCreated: 1 });
    expect(summary.reports.map((r: { action: string }) => r.action)).toEqual(["imported", "imported", "imported"]);
    const again = await isopter(["import", folder], { env: env() });
    expect(again.code).toBe(1); // notes.txt still refused
    expect(again.stdout).toContain("4 files: 0 imported (0 fields, 0 patients created), 3 duplicates, 1 refused");
  });

  it("bad arguments exit 2 naming them; a path that is not there exits 1 naming it", async () => {
    const zone = await isopter(["import", folder, "--time-zone", "Mars/Olympus"], { env: env() });
    expect(zone.code).toBe(2);
    expect(zone.stderr).toContain("--time-zone Mars/Olympus: not a time zone");
    const missing = await isopter(["import", join(folder, "nothing-here")], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nothing-here: cannot read (ENOENT)");
  });
});
