import { describe, expect, it } from "vitest";
import { formatTable } from "../../cli/table.ts";

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
});
