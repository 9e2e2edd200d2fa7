import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CsvError, parseVisualFieldsCsv } from "../../../core/analytics/visualfields-csv.ts";

// The visualFields CSV reader reads past named columns after l1..ln (what `isopter export --stages` writes), on both
// its paths (quote-free and through the CSV parser), and still refuses a location column out of place.

const csv = readFileSync(join(import.meta.dirname, "../../../fixtures/visualfields/vfpwgSunyiu24d2.csv"), "utf8");
const [header, ...rows] = csv.trimEnd().split("\n");
const withStages = [`${header},hpa,gss2,agis,cigts`, ...rows.map((r, i) => `${r},moderate,${i % 6},${i % 21},NA`)].join("\n");

describe("named columns after l1..ln", () => {
  it("are read past: the same rows as without them, quote-free and quoted", () => {
    const plain = parseVisualFieldsCsv(csv);
    expect(parseVisualFieldsCsv(withStages)).toEqual(plain);
    // A quote anywhere sends the file through the general CSV parser.
    const quoted = withStages.replace(/\nsample1,/, '\n"sample1",');
    expect(quoted).not.toBe(withStages);
    expect(parseVisualFieldsCsv(quoted)).toEqual(plain);
  });

  it("a row still needs every column; its location values are still checked", () => {
    const short = [withStages.split("\n")[0], rows[0]].join("\n");
    expect(() => parseVisualFieldsCsv(short)).toThrow(/line 2: expected 68 fields, got 64/);
    const bad = [withStages.split("\n")[0], `${rows[0]!.replace(/,(-?\d+)$/, ",x")},early,1,2,3`].join("\n");
    expect(() => parseVisualFieldsCsv(bad)).toThrow(/line 2, field l54: not a number/);
  });

  it("a location column out of place is still refused", () => {
    const h = header!.split(",");
    const swap = (cols: string[]) => [cols.join(","), ...rows].join("\n");
    expect(() => swap([...h.slice(0, -1), "l55"])).not.toThrow();
    expect(() => parseVisualFieldsCsv(swap([...h.slice(0, -1), "l55"]))).toThrow(/header column 64 must be "l54", got "l55"/);
    expect(() => parseVisualFieldsCsv(`${header},hpa,l55\n`)).toThrow(/header column 66 must be "l56", got "l55"/);
    expect(() => parseVisualFieldsCsv(`${header},\n`)).toThrow(CsvError);
  });
});
