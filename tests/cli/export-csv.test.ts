import { describe, expect, it } from "vitest";
import { analyseRows } from "../../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import fc from "fast-check";
import { csvField } from "../../core/analytics/csv-text.ts";
import { CURRENT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Eye, Pattern, Strategy, type Pattern as PatternT } from "../../core/model/enums.ts";
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
    const summary = await runExport(
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
    await expect(writer.write(exportRecord(p, sampleMeasurement(p, 0, { pattern: Pattern.G }))!)).rejects.toThrow(
      /59 thresholds, the 24-2 header has 54/,
    );
  });

  it("an empty export still writes the header", async () => {
    const sink = memorySink();
    await csvWriter(sink, Pattern.P10_2).end();
    expect(sink.text()).toBe(visualFieldsHeader(Pattern.P10_2) + "\n");
  });

  // Issue 19: "every threshold pattern written and read back (export then analyse gives the same indices); screening
  // patterns written in a documented layout; 'not seen' distinguishable from 0 dB."
  const everyPattern: Array<[PatternT, Strategy, Eye]> = [
    [Pattern.P24_2, Strategy.DS, Eye.Right],
    [Pattern.P30_2, Strategy.Normal, Eye.Left],
    [Pattern.P10_2, Strategy.SORS, Eye.Right],
    [Pattern.G, Strategy.DS, Eye.Left],
    [Pattern.S28, Strategy.Supra, Eye.Right],
    [Pattern.C40, Strategy.OneLevel, Eye.Left],
    [Pattern.Esterman, Strategy.OneLevel, Eye.Binocular],
    [Pattern.P24_2, Strategy.Supra, Eye.Left],
  ];
  const exportAndAnalyse = async (records: ExportRecord[], pattern: PatternT) => {
    const sink = memorySink();
    const writer = csvWriter(sink, pattern);
    for (const r of records) await writer.write(r);
    await writer.end();
    return { text: sink.text(), rows: analyseRows(parseVisualFieldsCsv(sink.text())) };
  };

  it.each(everyPattern)(
    "pattern %s (strategy %s, eye %s) reads back with the indices of the result's own analysis",
    async (pattern, strategy, eye) => {
      const p = samplePatient(3);
      // The CSV names no normative version: analyse reads it with the current one, so the results here carry that one.
      const records = [0, 1, 2].map((k) => {
        const m = sampleMeasurement(p, k, { pattern, strategy, eye });
        return exportRecord(p, { ...m, result: { ...m.result!, normativeVersion: CURRENT_NORMATIVE_VERSION } })!;
      });
      const { rows } = await exportAndAnalyse(records, pattern);
      expect(rows).toHaveLength(3);
      rows.forEach((row, i) => {
        const a = records[i]!.analysis();
        expect(row.pattern).toBe(getPattern(pattern).label);
        expect(row.eye).toBe(eye === Eye.Binocular ? "OU" : eye === Eye.Right ? "OD" : "OS");
        expect(row.tmd).toBe(a.normative?.global.tmd ?? null);
        expect(row.psd).toBe(a.normative?.global.psd ?? null);
        expect(row.vfi).toBe(a.normative?.global.vfi ?? null);
        expect(row.td).toEqual(a.normative?.td ?? null);
        if (pattern === Pattern.Esterman) expect(row.seen).toBe(a.estermanScore);
      });
    },
  );

  it("not seen is a negative value, apart from a threshold of 0 dB; a screening miss (stored 0) is written -1 and read back as 0", async () => {
    const p = samplePatient(4);
    const m = sampleMeasurement(p, 1, { pattern: Pattern.P24_2, strategy: Strategy.DS });
    const thresholds = [...m.result!.thresholds];
    thresholds[0] = 0; // seen at the brightest level
    thresholds[1] = -1; // "<0 dB": not seen at all
    const t = exportRecord(p, { ...m, result: { ...m.result!, thresholds } })!;
    const cells = visualFieldsRow(t).split(",").slice(10);
    expect(cells.slice(0, 2)).toEqual(["0", "-1"]);
    const { rows } = await exportAndAnalyse([t], Pattern.P24_2);
    expect(rows[0]!.td).toEqual(t.analysis().normative!.td);

    const screen = sampleMeasurement(p, 2, { pattern: Pattern.S28, strategy: Strategy.Supra });
    const levels = screen.result!.thresholds.map((_, i) => (i % 4 === 0 ? 0 : 24));
    const s = exportRecord(p, { ...screen, result: { ...screen.result!, thresholds: levels } })!;
    const written = visualFieldsRow(s).split(",").slice(10).map(Number);
    expect(written).toEqual(levels.map((v) => (v === 0 ? -1 : v)));
    const back = await exportAndAnalyse([s], Pattern.S28);
    expect(back.rows[0]!.seen).toBe(Math.round((100 * levels.filter((v) => v > 0).length) / levels.length));
  });

  it("a patient id with a comma or quote is quoted, and the file reads back (property over ids)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom("a", "1", ",", '"', " ", "Ş"), minLength: 1, maxLength: 8 }), async (id) => {
        const p = { ...samplePatient(5), id };
        const r = exportRecord(p, sampleMeasurement(samplePatient(5), 1))!;
        const row = { ...r, patient: p };
        expect(visualFieldsRow(row).startsWith(csvField(id) + ",")).toBe(true);
        const { rows } = await exportAndAnalyse([row], Pattern.P24_2);
        expect(rows[0]!.id).toBe(id.trim());
      }),
      { numRuns: 50 },
    );
  });
});
