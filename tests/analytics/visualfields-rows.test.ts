import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Schema } from "effect";
import { CsvError, infoColumns, recordRows, VisualFieldRowSchema, visualFieldRows } from "../../core/analytics/visualfields-csv.ts";

// visualFieldRows checks each row by hand for what VisualFieldRowSchema accepts (decoding every row with the Schema
// cost more than its analysis) and reads plain integers without Number(). The Schema stays the rule: for any row the
// reader returns exactly the Schema's decoding of the cells read as Number() reads them, and refuses what it refuses.

const LOCATIONS = 4;
const header = [...infoColumns, ...Array.from({ length: LOCATIONS }, (_, i) => `l${i + 1}`)].join(",");

/** A cell as the Schema path reads it: blank is NaN, anything else Number(). */
const asNumber = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

const numberCell = fc.oneof(
  fc.integer({ min: -40, max: 2_000_000_000 }).map(String),
  fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map(String),
  fc.constantFrom("", " ", "-", "--1", "1-", "1e3", "0x10", " 7 ", "+5", "007", "-0", "1.", ".5", "12345678901", "Infinity", "abc", "٣"),
);
const safeText = fc.stringMatching(/^[A-Za-z0-9 :.-]{0,8}$/);
const row = fc.record({
  id: safeText,
  eye: fc.constantFrom("OD", "OS", "OU", "od", " OD", "X", ""),
  date: fc.oneof(
    fc.constantFrom(
      "2024-02-03",
      "2024-2-3",
      "",
      "20240203",
      " 2024-02-03 ",
      "2024/02/03",
      "2024-02-3a",
      "2024-0203-",
      "-2024-02-0",
      "٢٠٢٤-٠٢-٠٣",
    ),
    // a date with one character changed: the characters on either side of the digits and the minus
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(":", "/", "-", "0", "9", "a", " "))
      .map(([k, c]) => `2024-02-03`.slice(0, k) + c + `2024-02-03`.slice(k + 1)),
    safeText,
  ),
  time: safeText,
  age: numberCell,
  type: safeText,
  fpr: numberCell,
  fnr: numberCell,
  fl: numberCell,
  duration: safeText,
  locations: fc.array(numberCell, { minLength: LOCATIONS, maxLength: LOCATIONS }),
});

describe("visualFieldRows against VisualFieldRowSchema", () => {
  it("returns the Schema's decoding of every row it accepts, and refuses (CsvError) every row the Schema refuses", () => {
    fc.assert(
      fc.property(row, (r) => {
        const cells = [r.id, r.eye, r.date, r.time, r.age, r.type, r.fpr, r.fnr, r.fl, r.duration, ...r.locations];
        const raw = {
          id: r.id.trim(),
          eye: r.eye.trim(),
          date: r.date.trim(),
          time: r.time.trim(),
          age: asNumber(r.age),
          type: r.type.trim(),
          fpr: asNumber(r.fpr),
          fnr: asNumber(r.fnr),
          fl: asNumber(r.fl),
          duration: r.duration.trim(),
          sensitivities: r.locations.map(asNumber),
        };
        const expected = Schema.decodeUnknownExit(VisualFieldRowSchema)(raw);
        const read = () => [...visualFieldRows(`${header}\n${cells.join(",")}\n`)];
        if (expected._tag === "Success") expect(read()).toEqual([expected.value]);
        else expect(read).toThrow(CsvError);
      }),
      { numRuns: 3_000 },
    );
  });

  // A file without quotes is read straight from the text (visualFieldRows' quote-free path); every other goes through
  // the CSV parser (recordRows). On any quote-free text, both give the same rows, or the same error.
  it("reads a quote-free file as the CSV parser does: the same rows, or the same error (line ends, blank lines, widths)", () => {
    const cell = fc.oneof(numberCell, safeText, fc.constantFrom("OD", "OS", "2024-02-03"));
    const record = fc.oneof(
      {
        weight: 6,
        arbitrary: row.map((r) => [r.id, r.eye, r.date, r.time, r.age, r.type, r.fpr, r.fnr, r.fl, r.duration, ...r.locations].join(",")),
      },
      { weight: 1, arbitrary: fc.array(cell, { minLength: 0, maxLength: 16 }).map((cells) => cells.join(",")) }, // wrong widths, blank
    );
    const lineEnd = fc.constantFrom("\n", "\r\n", "\r");
    const text = fc
      .tuple(
        fc.boolean(), // a byte-order mark
        fc.array(fc.tuple(record, lineEnd), { maxLength: 6 }),
        fc.boolean(), // the last line's end
        fc.constantFrom(header, ` ${header}`, header.replace("l2", "l3"), ""),
      )
      .map(([bom, records, lastEnd, head]) => {
        const body = records.map(([r, end], i) => r + (i < records.length - 1 || lastEnd ? end : "")).join("");
        return `${bom ? "\uFEFF" : ""}${head}\n${body}`;
      });
    const outcome = (read: () => unknown[]) => {
      try {
        return { rows: read() };
      } catch (e) {
        if (!(e instanceof CsvError)) throw e;
        return { error: e.message };
      }
    };
    fc.assert(
      fc.property(text, (t) => {
        expect(t.includes('"')).toBe(false);
        expect(outcome(() => [...visualFieldRows(t)])).toEqual(outcome(() => [...recordRows(t)]));
      }),
      { numRuns: 3_000 },
    );
  });
});
