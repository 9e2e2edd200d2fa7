import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { analyseCsvChunks, analyseCsvText, analyseRows, patternForLocationCount } from "../../core/analytics/analyse-csv.ts";
import { CsvError, parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { Pattern } from "../../core/model/enums.ts";
import { readFixture, visualFieldsDir } from "./reference-data.ts";
import { METHOD_IDS, type SeriesCriteria } from "../../core/analytics/progression/criteria/index.ts";

const root = resolve(import.meta.dirname, "../..");
const csv = readFixture("vfpwgSunyiu24d2.csv");

describe("analyse: visualFields CSV in, JSON out", () => {
  it("prints one object per row with exactly the issue's keys, arrays in CSV order with null at blind spots", () => {
    const out = JSON.parse(analyseCsvText(csv));
    expect(out).toHaveLength(42);
    expect(Object.keys(out[0])).toEqual([
      "id",
      "eye",
      "date",
      "td",
      "tdp",
      "pd",
      "pdp",
      "gh",
      "msens",
      "ssens",
      "tmd",
      "tsd",
      "pmd",
      "psd",
      "vfi",
      "pattern",
      "seen",
    ]);
    expect(out[0].td).toHaveLength(54);
    expect(out[0].td[25]).toBeNull();
    expect(out[0].tdp[34]).toBeNull();
    const levels = new Set(out.flatMap((r: { tdp: unknown[] }) => r.tdp).filter((v: unknown) => v !== null));
    for (const l of levels) expect([0.005, 0.01, 0.02, 0.05, 0.95, 0.98, 0.99, 0.995, 1]).toContain(l);
  });
  it("row by row: the pieces, whatever their size, join to the whole file's analysis; a bad row stops at its line", () => {
    const whole = JSON.stringify(analyseRows(parseVisualFieldsCsv(csv))) + "\n";
    for (const size of [1, 500, 1 << 16]) {
      const pieces = [...analyseCsvChunks(csv, {}, size)];
      expect(pieces.join("")).toBe(whole);
      if (size === 1) expect(pieces.length).toBe(43); // "[" with the first row, then one row each, then "]"
    }
    const lines = csv.trimEnd().split("\n");
    const broken = [...lines.slice(0, 6), lines[6]!.replace(/,[^,]*$/, ",x"), ...lines.slice(7)].join("\n");
    expect(() => [...analyseCsvChunks(broken)]).toThrow(/line 7, field l54: not a number/);
  });
  it("--series prints one object per id and eye with at least 3 visits", () => {
    const out = JSON.parse(analyseCsvText(csv, { series: true }));
    expect(out.map((o: { eye: string; nvisits: number }) => [o.eye, o.nvisits])).toEqual([
      ["OD", 27],
      ["OS", 15],
    ]);
    expect(Object.keys(out[0])).toEqual(["id", "eye", "nvisits", "glr", "plr", "poplr", "progression"]);
    // The perimetry page's progression analysis (issue 20): events, PoPLR on TD, the VFI trend.
    expect(Object.keys(out[0].progression)).toEqual(["events", "poplrTdP", "vfi", "noTrend", "criteria"]);
    // Every progression criterion and the eye's reading (issue 30), in METHOD_IDS order.
    const criteria = out[0].progression.criteria as SeriesCriteria;
    expect(criteria.methods.map((m) => m.method)).toEqual([...METHOD_IDS]);
    expect(criteria.reading).toMatchObject({ verdict: "worsening", basis: "majority" });
    expect(criteria.methods.find((m) => m.method === "plr-nouri-2012")).toMatchObject({ applicable: true, verdict: "worsening" });
    expect(["none", "possible progression", "likely progression"]).toContain(out[0].progression.events.status);
    expect(out[0].progression.vfi.ratePerYear).toBeLessThan(0);
    expect(out[0].progression.poplrTdP).toBeLessThan(0.05); // this patient progresses (OD: 27 visits over 15 years)
    expect(Object.keys(out[0].glr)).toEqual(["slope", "intercept", "se", "p"]);
    expect(Object.keys(out[0].poplr)).toEqual(["csl", "cslp", "csr", "csrp"]);
    expect(out[0].plr[25]).toBeNull();
    expect(Object.keys(out[0].plr[0])).toEqual(["slope", "p"]);
    const two = csv.split("\n").slice(0, 3).join("\n");
    expect(JSON.parse(analyseCsvText(two, { series: true }))).toEqual([]);
  });
  it("every pattern by its location count (24-2 54, 30-2 76, 10-2 68, G 59, S28 28, C40 40, Esterman 120), an error otherwise", () => {
    expect(patternForLocationCount(54)).toBe(Pattern.P24_2);
    expect(patternForLocationCount(68)).toBe(Pattern.P10_2);
    expect(patternForLocationCount(59)).toBe(Pattern.G);
    expect(patternForLocationCount(76)).toBe(Pattern.P30_2);
    expect(patternForLocationCount(28)).toBe(Pattern.S28);
    expect(patternForLocationCount(40)).toBe(Pattern.C40);
    expect(patternForLocationCount(120)).toBe(Pattern.Esterman);
    expect(() => patternForLocationCount(55)).toThrow(/cannot tell the pattern from 55 location columns \(54 = 24-2, 76 = 30-2/);
    const tenTwo = JSON.parse(analyseCsvText(readFixture("vfctrSunyiu10d2.csv")));
    expect(tenTwo[0].td).toHaveLength(68);
  });
  it("30-2 and G CSVs get TD, PD, their probabilities and the global indices (full-field normals)", () => {
    for (const [n, blind] of [
      [76, [35, 45]],
      [59, []],
    ] as const) {
      const header = ["id,eye,date,time,age,type,fpr,fnr,fl,duration", ...Array.from({ length: n }, (_, i) => `l${i + 1}`)].join(",");
      const row = (date: string, loss: number) =>
        ["p1,OD", date, "10:00:00,66,sita,0,0,0,05:00", ...Array.from({ length: n }, (_, i) => (i < 12 ? 28 - loss : 29))].join(",");
      const text = [header, row("2020-01-01", 0), row("2021-01-01", 4), row("2022-01-01", 8)].join("\n");
      const out = JSON.parse(analyseCsvText(text));
      expect(out).toHaveLength(3);
      expect(out[0].td).toHaveLength(n);
      for (const b of blind) expect(out[0].td[b]).toBeNull();
      expect(out[2].tmd).toBeLessThan(out[0].tmd);
      expect(out[2].pdp.filter((l: number | null) => l !== null && l <= 0.05).length).toBeGreaterThan(5);
      expect(Number.isFinite(out[2].psd) && Number.isFinite(out[2].vfi)).toBe(true);
      const series = JSON.parse(analyseCsvText(text, { series: true }));
      expect(series[0].glr.slope).toBeLessThan(0);
    }
  });
  it("errors name the line and the field", () => {
    const lines = csv.split("\n");
    const bad = (row: string) => [lines[0], row].join("\n");
    const cells = lines[1]!.split(",");
    expect(() => parseVisualFieldsCsv(bad(cells.map((c, i) => (i === 1 ? "OX" : c)).join(",")))).toThrow(
      /line 2, field eye: must be OD, OS or OU/,
    );
    expect(() => parseVisualFieldsCsv(bad(cells.map((c, i) => (i === 4 ? "old" : c)).join(",")))).toThrow(/line 2, field age/);
    expect(() => parseVisualFieldsCsv(bad(cells.map((c, i) => (i === 12 ? "x" : c)).join(",")))).toThrow(/line 2, field l3/);
    expect(() => parseVisualFieldsCsv(bad(cells.slice(0, 20).join(",")))).toThrow(/line 2: expected 64 fields/);
    expect(() => parseVisualFieldsCsv("id,eye\n")).toThrow(CsvError);
  });
  it("npm run --silent analyse -- FILE.csv prints the same JSON; bad input exits 1 with a message", async () => {
    const script = join(root, "scripts/analyse.ts");
    const dir = mkdtempSync(join(tmpdir(), "analyse-"));
    writeFileSync(join(dir, "bad.csv"), "id,eye,date\n1,OD,2020-01-01\n");
    // One node process each with the tsx loader (the tsx binary would start a second one); both run at once.
    const run = (file: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, file], { cwd: root });
        let stdout = "",
          stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => done({ code, stdout, stderr }));
      });
    const [good, bad] = await Promise.all([run(join(visualFieldsDir, "vfpwgSunyiu24d2.csv")), run(join(dir, "bad.csv"))]);
    expect(good.code).toBe(0);
    expect(good.stdout).toBe(analyseCsvText(csv));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.csv: header column 4 must be "time"/);
  });
});
