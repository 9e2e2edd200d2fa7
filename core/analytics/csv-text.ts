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

/** The records one at a time, so a large file is never held as records all at once (isopter analyse). */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let field = "";
  let startLine = 1;
  let quotedField = false;
  const endField = () => {
    fields.push(field);
    field = "";
    quotedField = false;
  };
  const endRecord = (): CsvRecord | undefined => {
    endField();
    const record = fields.length === 1 && fields[0] === "" ? undefined : { line: startLine, fields }; // a blank line is skipped
    fields = [];
    return record;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === "" && !quotedField) {
      // A quoted field: up to the closing quote; "" inside is one quote.
      const opened = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(opened, "a quoted field is never closed");
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === "\n") line++;
        field += q;
        i++;
      }
      quotedField = true;
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
        throw new CsvSyntaxError(line, `text after the closing quote of a field ("${next}")`);
      continue;
    }
    if (c === ",") {
      endField();
      i++;
    } else if (c === "\r" || c === "\n") {
      const record = endRecord();
      if (record) yield record;
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      startLine = line;
    } else {
      if (quotedField) throw new CsvSyntaxError(line, "text after the closing quote of a field");
      if (c === '"') throw new CsvSyntaxError(line, "a quote inside an unquoted field (quote the field and double the quote)");
      field += c;
      i++;
    }
  }
  if (field !== "" || quotedField || fields.length > 0) {
    const record = endRecord();
    if (record) yield record;
  }
}

/** A field as RFC 4180 writes it: quoted only when it holds a comma, a quote or a line break. */
export const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
