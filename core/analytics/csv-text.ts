/**
 * CSV text as RFC 4180 defines it, plus what spreadsheets and R write in practice: a UTF-8 byte-order mark at the
 * start, CRLF or LF line ends, fields quoted with double quotes (a quote inside doubled, commas and line breaks inside
 * kept), and a last line with or without its line end. R's `write.csv` quotes every string and the header; Excel adds
 * the BOM and CRLF. Blank lines are skipped.
 */

export class CsvSyntaxError extends Error {
  override readonly name = "CsvSyntaxError";
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** One record: its fields and the line it starts on (1-based, for messages). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  return [...csvRecords(text)];
}

const QUOTE = 0x22,
  COMMA = 0x2c,
  LF = 0x0a,
  CR = 0x0d;

/**
 * The records one at a time, so a large file is never held as records all at once (isopter analyse). Fields are cut
 * out of the text whole (slice) rather than built a character at a time: this is the hot loop of a large CSV.
 */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let field: string;
      if (text.charCodeAt(i) === QUOTE) {
        ({ field, end: i, line } = quotedField(text, i, line));
      } else {
        const start = i;
        for (let c = text.charCodeAt(i); i < text.length && c !== COMMA && c !== LF && c !== CR; c = text.charCodeAt(++i))
          if (c === QUOTE) throw new CsvSyntaxError(line, "a quote inside an unquoted field (quote the field and double the quote)");
        field = text.slice(start, i);
      }
      fields.push(field);
      if (i >= text.length) break;
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      // CR, LF or CRLF ends the record.
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    if (!(fields.length === 1 && fields[0] === "")) yield { line: startLine, fields }; // a blank line is skipped
  }
}

/** The quoted field opening at `open`: its text ("" inside is one quote), where it ends and the line it ends on. */
function quotedField(text: string, open: number, line: number): { field: string; end: number; line: number } {
  const opened = line;
  let field = "";
  let from = open + 1;
  for (;;) {
    const close = text.indexOf('"', from);
    if (close < 0) throw new CsvSyntaxError(opened, "a quoted field is never closed");
    for (let nl = text.indexOf("\n", from); nl >= 0 && nl < close; nl = text.indexOf("\n", nl + 1)) line++;
    field += text.slice(from, close);
    if (text.charCodeAt(close + 1) === QUOTE) {
      field += '"';
      from = close + 2;
      continue;
    }
    const end = close + 1;
    const next = text[end];
    if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
      throw new CsvSyntaxError(line, `text after the closing quote of a field ("${next}")`);
    return { field, end, line };
  }
}

/** A field as RFC 4180 writes it: quoted only when it holds a comma, a quote or a line break. */
export const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
