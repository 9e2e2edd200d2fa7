import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Schema } from "effect";
import { analyseRows } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { BundleSchema } from "../../core/import/fhir-schema.ts";
import { FAKE_TOKEN, FAKE_USER, startFakeBackend, type FakeBackend } from "./fake-backend.ts";
import { isopter, tempHome } from "./harness.ts";

// login and export against a backend that speaks the contract's envelope (tests/cli/fake-backend.ts).

let backend: FakeBackend;
beforeAll(async () => {
  backend = await startFakeBackend({ patients: 12, resultsPerPatient: 3 });
});
afterAll(() => backend.close());

async function loggedInHome(profile = "default"): Promise<string> {
  const home = tempHome();
  const run = await isopter(["login", "--server", backend.url, "--profile", profile, "-u", FAKE_USER.username, "--password-stdin"], {
    env: { ISOPTER_HOME: home },
    stdin: `${FAKE_USER.password}\n`,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return home;
}

describe("isopter login and profiles", () => {
  it("stores the token in a 0600 file under ISOPTER_HOME and the server in the profile", async () => {
    const home = await loggedInHome("clinic");
    const tokenFile = join(home, "tokens", "clinic.token");
    expect(readFileSync(tokenFile, "utf8")).toBe(FAKE_TOKEN);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, "tokens")).mode & 0o777).toBe(0o700);
    const config = JSON.parse(readFileSync(join(home, "config.json"), "utf8"));
    expect(config).toEqual({ current: "clinic", profiles: { clinic: { server: backend.url, username: FAKE_USER.username } } });
    const list = await isopter(["profiles", "--json"], { env: { ISOPTER_HOME: home } });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: "clinic", current: true, server: backend.url, username: FAKE_USER.username, loggedIn: true },
    ]);
  });

  it("a wrong password exits 3 and writes no token", async () => {
    const home = tempHome();
    const run = await isopter(["login", "--server", backend.url, "-u", FAKE_USER.username], {
      env: { ISOPTER_HOME: home, ISOPTER_PASSWORD: "nope" },
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/Login failed/);
    expect(() => readdirSync(join(home, "tokens"))).toThrow();
  });

  it("logout deletes the token; the next export exits 3", async () => {
    const home = await loggedInHome();
    expect((await isopter(["logout"], { env: { ISOPTER_HOME: home } })).code).toBe(0);
    const run = await isopter(["export", "--all", "--format", "json"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(3);
  });

  it("a token the server refuses exits 3 with a hint to log in", async () => {
    const home = await loggedInHome();
    writeFileSync(join(home, "tokens", "default.token"), "stale");
    const run = await isopter(["export", "--all", "--format", "json"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/session expired .*isopter login/);
  });
});

describe("isopter export against a server", () => {
  it("CSV of the whole organisation re-imports into analyse", async () => {
    const home = await loggedInHome();
    const out = join(mkdtempSync(join(tmpdir(), "isopter-out-")), "all.csv");
    const run = await isopter(["export", "--all", "--pattern", "24-2", "--out", out, "--json"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: "csv", patients: 12, results: 36, filteredOut: 0 });
    const rows = parseVisualFieldsCsv(readFileSync(out, "utf8"));
    expect(analyseRows(rows)).toHaveLength(36);
    const analysed = await isopter(["analyse", out, "--json"], { env: { ISOPTER_HOME: home } });
    expect(JSON.parse(analysed.stdout)).toHaveLength(36);
  });

  it("an --out that cannot be written fails (exit 1) naming it and why, before any result is read from the server", async () => {
    const home = await loggedInHome();
    const dir = mkdtempSync(join(tmpdir(), "isopter-out-"));
    const from = backend.requests.length;
    const missing = await isopter(["export", "--all", "--pattern", "24-2", "--out", join(dir, "no-such-dir", "all.csv")], {
      env: { ISOPTER_HOME: home },
    });
    const aDirectory = await isopter(["export", "--all", "--format", "fhir", "--out", dir], { env: { ISOPTER_HOME: home } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`--out ${join(dir, "no-such-dir", "all.csv")}: cannot write (ENOENT)`);
    expect(aDirectory.code).toBe(1);
    expect(aDirectory.stderr).toContain(`--out ${dir}: cannot write (EISDIR)`);
    // FHIR reads the organisation first (its name and identifier systems); no patient's data is asked for.
    expect(backend.requests.slice(from).filter((r) => r.includes("perimetry") || r.includes("patient"))).toEqual([]);
  });

  it("the organisation comes through perimetry/page; a backend without it (404) is read patient by patient, same file", async () => {
    const home = await loggedInHome();
    const dir = mkdtempSync(join(tmpdir(), "isopter-out-"));
    const from = backend.requests.length;
    const paged = await isopter(["export", "--all", "--pattern", "24-2", "--out", join(dir, "paged.csv")], { env: { ISOPTER_HOME: home } });
    expect(paged.code).toBe(0);
    const asked = backend.requests.slice(from).map((r) => r.split("?")[0]);
    expect(asked).toEqual(["POST /api/perimetry/page"]);

    const older = await startFakeBackend({ patients: 12, resultsPerPatient: 3, pageCall: false });
    try {
      const olderHome = tempHome();
      const login = await isopter(["login", "--server", older.url, "-u", FAKE_USER.username, "--password-stdin"], {
        env: { ISOPTER_HOME: olderHome },
        stdin: `${FAKE_USER.password}\n`,
      });
      expect(login.code).toBe(0);
      const run = await isopter(["export", "--all", "--pattern", "24-2", "--out", join(dir, "older.csv"), "--json"], {
        env: { ISOPTER_HOME: olderHome },
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ patients: 12, results: 36 });
      const calls = older.requests.map((r) => r.split("?")[0]);
      expect(calls.filter((c) => c === "POST /api/perimetry/page")).toHaveLength(1);
      expect(calls.filter((c) => c === "GET /api/perimetry/all")).toHaveLength(12);
      expect(readFileSync(join(dir, "older.csv"), "utf8")).toBe(readFileSync(join(dir, "paged.csv"), "utf8"));
    } finally {
      await older.close();
    }
  });

  it("FHIR of two patients to stdout parses; the summary goes to stderr", async () => {
    const home = await loggedInHome();
    const run = await isopter(["export", "-p", "p00001", "-p", "p00002", "--format", "fhir"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(0);
    const bundle = Schema.decodeUnknownSync(BundleSchema)(JSON.parse(run.stdout), { onExcessProperty: "error" });
    expect(bundle.entry.filter((e) => e.resource.resourceType === "DiagnosticReport")).toHaveLength(6);
    expect(run.stderr).toMatch(/Exported 6 results of 2 patients as fhir to stdout/);
  });

  it("a patients file, the date filter and the eye filter", async () => {
    const home = await loggedInHome();
    const dir = mkdtempSync(join(tmpdir(), "isopter-out-"));
    writeFileSync(join(dir, "ids.txt"), "# ward 3\np00003\np00004\n");
    const run = await isopter(
      ["export", "--patients-file", join(dir, "ids.txt"), "--format", "ndjson", "--eye", "right", "--to", "2020-03-01"],
      { env: { ISOPTER_HOME: home } },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(["p00003", "p00004"]).toContain(l.patient.id);
      expect(l.result.eye).toBe(0);
      expect(l.result.takenAt.slice(0, 10) <= "2020-03-01").toBe(true);
      expect(l.analysis.normative.global.tmd).toEqual(expect.any(Number));
    }
  });

  it("a server that went away exits 4", async () => {
    const home = tempHome();
    mkdirSync(join(home, "tokens"), { recursive: true });
    writeFileSync(join(home, "config.json"), JSON.stringify({ current: "gone", profiles: { gone: { server: "http://127.0.0.1:9" } } }));
    writeFileSync(join(home, "tokens", "gone.token"), "t", { mode: 0o600 });
    const run = await isopter(["export", "--all", "--format", "json"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/server unreachable: Network error calling perimetry.page/);
  });

  it("the token never goes to another server than the one it came from", async () => {
    const home = await loggedInHome();
    const run = await isopter(["export", "--all", "--format", "json", "--server", "http://127.0.0.1:9"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/is logged in to http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/);
  });

  it("an unknown patient exits 1 naming the server's answer", async () => {
    const home = await loggedInHome();
    const run = await isopter(["export", "-p", "nobody", "--format", "json"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/server answered 404 not_found: no patient nobody/);
  });

  it("DICOM writes the OPV and its printed page per result, PDF one page per result, into --out", async () => {
    const home = await loggedInHome();
    const dir = mkdtempSync(join(tmpdir(), "isopter-out-"));
    for (const [format, perResult] of [
      ["dicom", 2],
      ["pdf", 1],
    ] as const) {
      const run = await isopter(["export", "-p", "p00005", "--format", format, "--out", join(dir, format)], {
        env: { ISOPTER_HOME: home },
      });
      expect(run.code).toBe(0);
      expect(readdirSync(join(dir, format))).toHaveLength(3 * perResult);
    }
    // --language through the command: the page reads in Dutch (pdftotext, poppler-utils).
    const nl = join(dir, "pdf-nl");
    const run = await isopter(["export", "-p", "p00005", "--format", "pdf", "--out", nl, "--language", "nl"], {
      env: { ISOPTER_HOME: home },
    });
    expect(run.code).toBe(0);
    const page = spawnSync("pdftotext", [join(nl, readdirSync(nl)[0]!), "-"], { encoding: "utf8" }).stdout;
    expect(page).toContain("Patiënt-ID");
    expect(page).not.toContain("Patient ID");
  });
});
