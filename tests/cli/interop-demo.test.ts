import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadavg } from "node:os";
import { analyseRows } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { CURRENT_NORMATIVE_VERSION, hasNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { patternLabel } from "../../core/model/enums.ts";
import { DEMO_PASSWORD, startTestServer, type TestServer } from "../server/harness.ts";
import { dciodvfyAsync, readDicom, startStorescp, type Receiver } from "./dicom-tools.ts";
import { IG, observationProfileIssues, r4Issues, reportProfileIssues } from "./fhir-validation.ts";
import { isopter, tempHome } from "./harness.ts";

// Issue 19's "done when": the demo clinic's results (the server's demo seed, on PGlite) exported as DICOM and checked
// by dciodvfy file by file and stored in dcmtk's storescp; as a FHIR transaction Bundle checked by @medplum/core and
// the Eye Care IG's profile constraints; as CSV of every pattern read back by `isopter analyse` with the indices of
// the JSON export. Figures go to the console for the record.

let server: TestServer;
let receiver: Receiver;
let home: string;
const env = () => ({ ISOPTER_HOME: home, ISOPTER_TIME_ZONE: "Europe/Berlin" });
const figure = (line: string) => console.log(`[interop] ${line} (load ${loadavg()[0]!.toFixed(2)})`);

beforeAll(async () => {
  [server, receiver] = await Promise.all([startTestServer("pglite"), startStorescp()]);
  home = tempHome();
  const login = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(login.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await receiver?.stop();
  await server?.drop();
});

async function ndjson(): Promise<any[]> {
  const run = await isopter(["export", "--all", "--format", "ndjson"], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** dciodvfy warnings that say what the data model cannot (tests/cli/export-dicom.test.ts lists why). */
const allowedWarnings = [
  /^Warning - Unrecognized defined term <99ISOPTER> for value 1 of attribute <Coding Scheme Designator>$/,
  /^Warning - Missing attribute or value that would be needed to build DICOMDIR - Study Time$/,
];

describe("the demo clinic's results in other clinical systems", () => {
  it("CSV: every pattern of the clinic written and read back by isopter analyse gives the JSON export's indices", async () => {
    const records = await ndjson();
    expect(records.length).toBeGreaterThan(200);
    const patterns = [...new Set(records.map((r) => r.result.pattern as number))];
    const dir = mkdtempSync(join(tmpdir(), "isopter-demo-csv-"));
    const lines: string[] = [];
    const withNormals: string[] = [];
    for (const pattern of patterns) {
      const label = patternLabel[pattern as keyof typeof patternLabel];
      const file = join(dir, `${label}.csv`);
      const run = await isopter(["export", "--all", "--pattern", label, "--out", file], { env: env() });
      expect(run.code, run.stderr).toBe(0);
      const json = records.filter((r) => r.result.pattern === pattern);
      const parsed = parseVisualFieldsCsv(readFileSync(file, "utf8"));
      const rows = analyseRows(parsed);
      expect(rows).toHaveLength(json.length);
      let compared = 0;
      rows.forEach((row, i) => {
        // The CSV names no normative version: analyse reads it with the current one; compare results analysed so.
        if (json[i].result.normativeVersion !== CURRENT_NORMATIVE_VERSION) return;
        const nv = json[i].analysis.normative;
        if (nv === null) return expect(row.tmd).toBeNull();
        compared++;
        expect(row.tmd).toBeCloseTo(nv.global.tmd, 8);
        expect(row.psd).toBeCloseTo(nv.global.psd, 8);
        expect(row.vfi).toBeCloseTo(nv.global.vfi, 8);
      });
      // Not vacuous: a pattern the current normative version covers had its indices compared, at least one result's.
      if (hasNormativeDatabase(pattern as never, CURRENT_NORMATIVE_VERSION)) {
        expect(compared, `${label}: no result of the current normative version with normative indices to compare`).toBeGreaterThan(0);
        withNormals.push(label);
      }
      const notSeen = parsed.reduce((n, r) => n + r.sensitivities.filter((v) => v < 0).length, 0);
      lines.push(`${label}: ${rows.length} rows, ${compared} with normative indices equal, ${notSeen} locations not seen`);
    }
    figure(`CSV round trip: ${lines.join("; ")}`);
    // The demo clinic holds 24-2, G and 30-2 threshold results (and no 10-2): each of those was compared.
    expect(withNormals).toEqual(expect.arrayContaining(["24-2", "G", "30-2"]));
  }, 300_000);

  it("DICOM: every OPV and report file has 0 dciodvfy errors, and all are stored in storescp by --send", async () => {
    const results = (await ndjson()).length;
    const dir = mkdtempSync(join(tmpdir(), "isopter-demo-dcm-"));
    const started = Date.now();
    const run = await isopter(
      ["export", "--all", "--format", "dicom", "--out", dir, "--send", `${receiver.aet}@127.0.0.1:${receiver.port}`],
      { env: env() },
    );
    expect(run.code, run.stderr).toBe(0);
    const files = readdirSync(dir).map((f) => join(dir, f));
    expect(files).toHaveLength(2 * results);
    expect(run.stderr).toContain(`Stored ${files.length} of ${files.length} files in ${receiver.aet}@127.0.0.1:${receiver.port}.`);
    let errors = 0;
    const warnings = new Map<string, number>();
    for (const f of files) {
      const v = await dciodvfyAsync(f);
      errors += v.errors.length;
      if (v.errors.length) console.log(f, v.errors);
      for (const w of v.warnings) warnings.set(w, (warnings.get(w) ?? 0) + 1);
    }
    figure(
      `DICOM: ${results} results, ${files.length} files, dciodvfy errors ${errors}, warnings ${[...warnings].map(([w, n]) => `${n}x ${w}`).join("; ") || "none"}; ${((Date.now() - started) / 1000).toFixed(1)} s export and send`,
    );
    expect(errors).toBe(0);
    expect([...warnings.keys()].filter((w) => !allowedWarnings.some((a) => a.test(w)))).toEqual([]);
    const uids = (list: string[]) => list.map((f) => readDicom(readFileSync(f)).ds.SOPInstanceUID as string).sort();
    expect(uids(receiver.received())).toEqual(uids(files));
    // Both eyes of a visit share a study.
    const opv = files.filter((f) => !f.endsWith("_report.dcm")).map((f) => readDicom(readFileSync(f)).ds);
    const studies = new Set(opv.map((d) => d.StudyInstanceUID));
    figure(`DICOM: ${opv.length} OPV instances in ${studies.size} studies (visits)`);
    expect(studies.size).toBeLessThan(opv.length);
  }, 900_000);

  it("FHIR: a transaction Bundle has no issue for @medplum/core or the IG profile checks; --with-pdf attaches the pages", async () => {
    const withPdf = await isopter(
      ["export", "--all", "--format", "fhir", "--with-pdf", "--from", "2000-01-01", "--pattern", "G", "--eye", "left"],
      { env: env() },
    );
    expect(withPdf.code, withPdf.stderr).toBe(0);
    const forms = JSON.parse(withPdf.stdout)
      .entry.filter((e: any) => e.resource.resourceType === "DiagnosticReport")
      .map((e: any) => e.resource.presentedForm);
    expect(forms.length).toBeGreaterThan(0);
    for (const f of forms) expect(Buffer.from(f[0].data, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    const run = await isopter(["export", "--all", "--format", "fhir", "--bundle", "transaction"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const bundle = JSON.parse(run.stdout);
    const byUrl = new Map<string, any>(bundle.entry.map((e: any) => [e.fullUrl, e.resource]));
    const issues: string[] = [...(await r4Issues(bundle))];
    let reports = 0,
      profiled = 0;
    for (const e of bundle.entry) {
      const r = e.resource;
      issues.push(...(await r4Issues(r)));
      if (r.meta?.profile?.includes(IG.report)) reports++, issues.push(...reportProfileIssues(r, byUrl));
      if (r.meta?.profile?.includes(IG.observation)) profiled++, issues.push(...observationProfileIssues(r, byUrl));
    }
    figure(
      `FHIR: ${forms.length} printed pages attached with --with-pdf; ${bundle.entry.length} entries, ${reports} DiagnosticReports and ${profiled} Observations of the IG's profiles, ${issues.length} issues`,
    );
    expect(issues).toEqual([]);
  }, 300_000);
});
