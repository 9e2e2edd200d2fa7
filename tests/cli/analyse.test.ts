import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { isopter, projectRoot, spawnRun } from "./harness.ts";

const csv = join(projectRoot, "fixtures/visualfields/vfpwgSunyiu24d2.csv");
const tsx = join(projectRoot, "node_modules/.bin/tsx");

describe("isopter analyse", () => {
  it("--json prints exactly what `npm run --silent analyse -- FILE.csv` prints", async () => {
    const [script, cli] = await Promise.all([spawnRun(tsx, ["scripts/analyse.ts", csv]), isopter(["analyse", csv, "--json"])]);
    expect(script.code).toBe(0);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(script.stdout);
    expect(JSON.parse(cli.stdout)).toHaveLength(42);
  });

  it("--series --json prints exactly what the script prints with --series", async () => {
    const [script, cli] = await Promise.all([
      spawnRun(tsx, ["scripts/analyse.ts", csv, "--series"]),
      isopter(["analyse", csv, "--series", "--json"]),
    ]);
    expect(script.code).toBe(0);
    expect(cli.stdout).toBe(script.stdout);
  });

  it("without --json prints a table: a header, a rule and one line per test", async () => {
    const run = await isopter(["analyse", csv]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^id\s+eye\s+date\s+MS dB\s+MD dB\s+PSD dB/);
    expect(lines[1]).toMatch(/^-+\s+-+/);
    expect(lines).toHaveLength(2 + 42);
    // The table shows the same MD as the JSON, to 2 decimals.
    const json = JSON.parse((await isopter(["analyse", csv, "--json"])).stdout);
    expect(lines[2]).toContain(json[0].tmd.toFixed(2));
  });

  it("reads a UTF-8 file as UTF-8 (a byte-order mark, an id with an accent) and an ASCII one alike", async () => {
    const { readFileSync, writeFileSync } = await import("node:fs");
    const { tempHome } = await import("./harness.ts");
    const [header, first] = readFileSync(csv, "utf8").split("\n");
    const file = join(tempHome(), "accents.csv");
    writeFileSync(file, `\uFEFF${header}\n${first!.replace(/^[^,]*/, "Zoë-Ødegård")}\n`);
    const ascii = join(tempHome(), "ascii.csv");
    writeFileSync(ascii, `${header}\n${first!.replace(/^[^,]*/, "Zoe-Odegard")}\n`);
    const [utf8, plain] = await Promise.all([isopter(["analyse", file]), isopter(["analyse", ascii])]);
    expect(utf8.code).toBe(0);
    const row = utf8.stdout.trimEnd().split("\n")[2]!;
    expect(row).toMatch(/^Zoë-Ødegård {2}OD/);
    expect(row.slice("Zoë-Ødegård".length)).toBe(plain.stdout.trimEnd().split("\n")[2]!.slice("Zoe-Odegard".length));
  });

  it("a series table lists each id and eye with 3+ visits, then each one's progression criteria and reading", async () => {
    const run = await isopter(["analyse", csv, "--series"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/sample1\s+OD\s+27/);
    expect(run.stdout).toMatch(/sample1\s+OS\s+15/);
    const criteria = run.stdout.slice(run.stdout.indexOf("Progression criteria"));
    expect(criteria).toMatch(
      /^id\s+eye\s+Events\s+PoPLR\s+MD slope\s+VFI trend\s+CIGTS\s+PLR 2012\s+PLR 3-omit\s+Schell 2014\s+Clusters\s+reading$/m,
    );
    // The JSON's verdicts, word for word (OD: 27 visits over 15 years, a progressing eye).
    const json = JSON.parse((await isopter(["analyse", csv, "--series", "--json"])).stdout);
    const od = json[0].progression.criteria;
    const verdicts = od.methods.map((m: { applicable: boolean; verdict?: string }) => m.verdict ?? "n/a");
    expect(criteria).toMatch(new RegExp(`sample1\\s+OD\\s+${verdicts.join("\\s+")}\\s+worsening by \\d of 9 methods`));
  });

  it("a missing file fails with exit 1 and names the file", async () => {
    const run = await isopter(["analyse", "no-such-file.csv"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no-such-file.csv: cannot read (ENOENT)");
  });

  it("bad CSV fails with exit 1 naming the line and field", async () => {
    const { writeFileSync } = await import("node:fs");
    const { tempHome } = await import("./harness.ts");
    const file = join(tempHome(), "bad.csv");
    writeFileSync(file, "id,eye,date,time,age,type,fpr,fnr,fl,duration,l1\nx,XX,2020-01-01,10:00:00,60,pwg,0,0,0,00:05:00,30\n");
    const run = await isopter(["analyse", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/line 2, field eye/);
  });
});
