import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { analyseCsvText } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { STAGE_COLUMNS, stageCodes } from "../../core/analytics/stages/index.ts";
import { Pattern } from "../../core/model/enums.ts";
import { csvWriter, visualFieldsHeader, visualFieldsRow } from "../../cli/export/csv.ts";
import type { ExportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { fakeApi, memorySink } from "./fixtures.ts";
import { isopter, projectRoot } from "./harness.ts";

// Issue 30 §1: the stages in the CSV export (`isopter export --format csv --stages`, after l1..ln: the default file
// stays the visualFields layout R reads) and in `isopter analyse --stages` (table and --json).

async function exportWithStages(): Promise<{ text: string; records: ExportRecord[] }> {
  const api = fakeApi({ patients: 5, resultsPerPatient: 3 });
  const sink = memorySink();
  const records: ExportRecord[] = [];
  const writer = csvWriter(sink, Pattern.P24_2, { stages: true });
  await runExport(
    api,
    { kind: "organisation" },
    { reliableOnly: false, pattern: Pattern.P24_2 },
    {
      write: async (r) => {
        records.push(r);
        await writer.write(r);
      },
      end: () => writer.end(),
    },
  );
  return { text: sink.text(), records };
}

describe("stage columns", () => {
  it("the default CSV has no stage column; --stages appends hpa, gss2, agis, cigts after l1..ln", () => {
    expect(visualFieldsHeader(Pattern.P24_2).split(",").at(-1)).toBe("l54");
    expect(visualFieldsHeader(Pattern.P24_2, { stages: true }).split(",").slice(-5)).toEqual(["l54", ...STAGE_COLUMNS]);
  });

  it("round trip: an export with stages reads back with the same values, and analyse --stages gives the record's stages", async () => {
    const { text, records } = await exportWithStages();
    expect(records.length).toBe(15);
    const rows = parseVisualFieldsCsv(text);
    expect(rows.map((r) => r.sensitivities)).toEqual(records.map((r) => r.result.thresholds));
    const lines = text.trimEnd().split("\n").slice(1);
    const analysed = JSON.parse(analyseCsvText(text, { stages: true }));
    records.forEach((r, i) => {
      const codes = stageCodes(r.analysis().stages);
      const cells = lines[i]!.split(",").slice(-4);
      expect(cells).toEqual([codes.hpa ?? "NA", codes.gss2 ?? "NA", String(codes.agis ?? "NA"), codes.cigts?.toFixed(2) ?? "NA"]);
      // The CSV names no normative version: analyse reads it with the current one, as these records were analysed.
      expect(analysed[i].stages).toEqual(JSON.parse(JSON.stringify(r.analysis().stages)));
    });
    expect(visualFieldsRow(records[0]!, { stages: true }).startsWith(visualFieldsRow(records[0]!))).toBe(true);
  });

  it("isopter analyse --stages: the table's last four columns and the JSON rows' stages; not with --series", async () => {
    const csv = join(projectRoot, "fixtures/visualfields/vfpwgSunyiu24d2.csv");
    const [table, json, plain, both] = await Promise.all([
      isopter(["analyse", csv, "--stages"]),
      isopter(["analyse", csv, "--stages", "--json"]),
      isopter(["analyse", csv, "--json"]),
      isopter(["analyse", csv, "--stages", "--series"]),
    ]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/PD p<5%\s+HPA\s+GSS 2\s+AGIS\s+CIGTS$/);
    const rows = JSON.parse(json.stdout);
    expect(rows).toHaveLength(42);
    // The rows are the plain --json rows with their stages added.
    expect(rows.map(({ stages: _s, ...row }: { stages: unknown }) => row)).toEqual(JSON.parse(plain.stdout));
    const first = rows[0].stages;
    const cells = lines[2]!.trim().split(/\s+/).slice(-4);
    expect(cells).toEqual([first.hodapp.stage, first.gss2.stage, String(first.agis.score), first.cigts.score.toFixed(1)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--stages stages each row: not with --series/);
  });

  it("isopter export --stages is for CSV only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stages-"));
    writeFileSync(join(dir, "ids.txt"), "p1\n");
    const run = await isopter(["export", "--patients-file", join(dir, "ids.txt"), "--format", "json", "--stages"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--stages adds columns to the CSV/);
  });
});
