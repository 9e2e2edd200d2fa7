import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { FixedColumn, fixedText, formatTable, tableChunks, TextColumn } from "../../cli/table.ts";

describe("formatTable (the CLI's plain-text tables)", () => {
  it("aligns each column to its widest cell: text left where asked, numbers right, no trailing blanks", () => {
    expect(
      formatTable(
        ["id", "MD dB"],
        [
          ["a", "-1.25"],
          ["long-id", "3.5"],
        ],
        ["left"],
      ),
    ).toBe(["id       MD dB", "-------  -----", "a        -1.25", "long-id    3.5", ""].join("\n"));
  });

  it("prints a table of 300,000 rows (isopter analyse of a large file): the widths are not taken by spreading a column", () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`p${i}`, String(i % 7)]);
    const lines = formatTable(["id", "n"], rows, ["left"]).trimEnd().split("\n");
    expect(lines).toHaveLength(300_002);
    expect(lines[0]).toBe("id       n");
    expect(lines.at(-1)).toBe("p299999  0"); // 299,999 = 7 x 42,857
  });

  it("trims what a left-aligned last column or blank cells leave at a line's end", () => {
    expect(
      formatTable(
        ["n", "name"],
        [
          ["1", "a"],
          ["22", "longer"],
          ["3", ""],
        ],
        ["right", "left"],
      ),
    ).toBe([" n  name", "--  ------", " 1  a", "22  longer", " 3", ""].join("\n"));
  });
});

// isopter analyse keeps its numbers as numbers (FixedColumn) and formats them as it prints (fixedText), so a table of
// 100,000 rows holds no cell texts. What it prints must be exactly the table of toFixed's texts.
const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -100, max: 100, noNaN: true }),
  fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 1000), // thousandths: ties at 2 digits and 1
  fc.integer({ min: -2_000, max: 2_000 }).map((n) => n / 8), // exact binary halves: .125, .5, .875
  fc.constantFrom(0, -0, 1.005, 2.675, 9.995, 99.995, 0.045, -1e-9, 1e-9, 4.35, 1e9 / 100, 1e21, -1e21, 5e-324),
);

describe("fixedText", () => {
  it("is toFixed's text for every finite number and 0 to 3 digits (halves, binary near-halves, -0, tiny and huge)", () => {
    fc.assert(
      fc.property(anyDouble, fc.integer({ min: 0, max: 4 }), (v, digits) => {
        expect(fixedText(v, digits)).toBe(v.toFixed(digits));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("tableChunks of FixedColumns", () => {
  it("prints what formatTable prints of the toFixed texts ('-' for no number), in pieces that join to it", () => {
    const cell = fc.oneof({ weight: 8, arbitrary: anyDouble }, { weight: 1, arbitrary: fc.constantFrom(null, Number.NaN, Infinity) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[a-z0-9-]{0,12}$/), cell, cell), { maxLength: 40 }),
        fc.integer({ min: 1, max: 200 }),
        (rows, chunkChars) => {
          const id = new TextColumn("id", "left"),
            md = new FixedColumn("MD dB", 2),
            n = new FixedColumn("n", 0);
          for (const [i, a, b] of rows) {
            id.push(i);
            md.push(a);
            n.push(b);
          }
          const text = (v: number | null, digits: number) => (v === null || !Number.isFinite(v) ? "-" : v.toFixed(digits));
          const expected = formatTable(
            ["id", "MD dB", "n"],
            rows.map(([i, a, b]) => [i, text(a, 2), text(b, 0)]),
            ["left"],
          );
          const chunks = [...tableChunks([id, md, n], chunkChars)];
          expect(chunks.join("")).toBe(expected);
          for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(chunkChars);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
