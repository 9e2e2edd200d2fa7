import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { csvField, CsvSyntaxError, parseCsv } from "../../core/analytics/csv-text.ts";

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe("CSV text (RFC 4180 with BOM and CRLF)", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks", () => {
    expect(fields('a,"b,c","say ""hi""","two\nlines"\n1,2,3,4\n')).toEqual([
      ["a", "b,c", 'say "hi"', "two\nlines"],
      ["1", "2", "3", "4"],
    ]);
  });

  it("reads what R's write.csv writes: every string and the header quoted", () => {
    const r = '"id","eye","date"\r\n"p 1","OD","2024-01-02"\r\n';
    expect(fields(r)).toEqual([
      ["id", "eye", "date"],
      ["p 1", "OD", "2024-01-02"],
    ]);
  });

  it("drops a UTF-8 byte-order mark, reads CRLF, LF and a last line without an end, skips blank lines", () => {
    expect(fields("\uFEFFid,x\r\n1,2\r\n\r\n3,4")).toEqual([
      ["id", "x"],
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  it("keeps empty fields, quoted or not", () => {
    expect(fields('a,,""\n')).toEqual([["a", "", ""]]);
  });

  it("names the line of a quote left open or text after a closing quote", () => {
    expect(() => parseCsv('id\n"open\n')).toThrow(new CsvSyntaxError(2, "a quoted field is never closed"));
    expect(() => parseCsv('id\n"a"b\n')).toThrow(/line 2: text after the closing quote/);
    expect(() => parseCsv('id\na"b\n')).toThrow(/line 2: a quote inside an unquoted field/);
  });

  it("any fields written with csvField read back the same (property)", () => {
    const row = fc.array(fc.string({ unit: fc.constantFrom("a", "Ş", "李", ",", '"', "\n", "\r", " ", "1") }), {
      minLength: 2,
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), fc.constantFrom("\n", "\r\n"), (rows, eol) => {
        const text = rows.map((r) => r.map(csvField).join(",")).join(eol) + eol;
        // A row of one empty field is a blank line, which readers skip.
        expect(fields(text)).toEqual(rows.filter((r) => !(r.length === 1 && r[0] === "")));
      }),
    );
  });
});
