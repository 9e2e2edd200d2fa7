import { describe, expect, it } from "vitest";
import { analyseRows } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { csvWriter, hhmmss, visualFieldsHeader, visualFieldsRow } from "../../cli/export/csv.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { fakeApi, memorySink, sampleMeasurement, samplePatient } from "./fixtures.ts";

describe("CSV export in the visualFields layout", () => {
  it("has the header id, eye, date, time, age, type, fpr, fnr, fl, duration, l1..ln", () => {
    const h = visualFieldsHeader(Pattern.P24_2).split(",");
    expect(h.slice(0, 10)).toEqual(["id", "eye", "date", "time", "age", "type", "fpr", "fnr", "fl", "duration"]);
    expect(h.slice(10)).toEqual(Array.from({ length: 54 }, (_, i) => `l${i + 1}`));
  });

  it("writes one row per result with the stored values", () => {
    const p = samplePatient(7);
    const m = sampleMeasurement(p, 1, { takenAt: "2024-03-05T14:07:09.000Z", eye: Eye.Left });
    const r = exportRecord(p, m)!;
    const cells = visualFieldsRow(r).split(",");
    expect(cells.slice(0, 6)).toEqual([p.id, "OS", "2024-03-05", "14:07:09", String(r.age), "sors"]);
    expect(Number(cells[6])).toBeCloseTo(m.result!.catchTrials.falsePositive.errors / 10, 12);
    expect(Number(cells[8])).toBeCloseTo(1 / 12, 12);
    expect(cells[9]).toBe(hhmmss(m.result!.examinationTimeInSeconds));
    expect(cells.slice(10).map(Number)).toEqual(m.result!.thresholds);
  });

  it("re-imports into analyse with the same numbers as the result's own analysis", async () => {
    const api = fakeApi({ patients: 6, resultsPerPatient: 4 });
    const sink = memorySink();
    const records: ExportRecord[] = [];
    const writer = csvWriter(sink, Pattern.P24_2);
    const summary = await runExport(api, { kind: "organisation" }, { reliableOnly: false, pattern: Pattern.P24_2 }, {
      write: async (r) => {
        records.push(r);
        await writer.write(r);
      },
      end: () => writer.end(),
    });
    expect(summary.results).toBe(24);
    expect(sink.closed()).toBe(true);
    const rows = parseVisualFieldsCsv(sink.text());
    const analysed = analyseRows(rows);
    expect(analysed).toHaveLength(24);
    analysed.forEach((row, i) => {
      const nv = records[i]!.analysis().normative!;
      expect(row.id).toBe(records[i]!.patient.id);
      expect(row.tmd).toBeCloseTo(nv.global.tmd, 10);
      expect(row.psd).toBeCloseTo(nv.global.psd, 10);
      expect(row.vfi).toBeCloseTo(nv.global.vfi, 10);
      expect(row.gh).toBeCloseTo(nv.gh, 10);
      expect(row.td).toEqual(nv.td);
      expect(row.pdp).toEqual(nv.pdp);
    });
  });

  it("refuses a result of another pattern (the header fixes the columns)", async () => {
    const p = samplePatient(1);
    const writer = csvWriter(memorySink(), Pattern.P24_2);
    await expect(writer.write(exportRecord(p, sampleMeasurement(p, 0, { pattern: Pattern.G }))!)).rejects.toThrow(/59 thresholds, the 24-2 header has 54/);
  });

  it("an empty export still writes the header", async () => {
    const sink = memorySink();
    await csvWriter(sink, Pattern.P10_2).end();
    expect(sink.text()).toBe(visualFieldsHeader(Pattern.P10_2) + "\n");
  });
});
