import { Schema } from "effect";
import { strategyCodes, type Strategy } from "../model/enums.ts";
import { CsvSyntaxError, csvRecords, type CsvRecord } from "./csv-text.ts";
import { screeningStrategies } from "./seen.ts";

/**
 * The visualFields CSV layout (one row per test): id, eye, date, time, age, type, fpr, fnr, fl, duration, l1..ln with
 * values in dB in location-map order (core/analytics/patterns.ts). The pattern follows from n (patternForLocationCount).
 *   eye    OD right, OS left, OU binocular (Esterman)
 *   type   the strategy (csvStrategyNames); visualFields' own data use the column for the subject group (ctr, pwg)
 *   l1..ln a negative value is "not seen", whatever the strategy (visualFields' coding of "<0 dB"):
 *          thresholding strategies: the threshold in dB as stored; 0 dB was seen at the brightest level
 *          screening strategies (supra, 1lt, and Esterman): the level seen in dB, -1 when not seen (stored as 0)
 * Parsed with a real CSV parser (quoted fields, CRLF, BOM: csv-text.ts) and validated with a Schema; errors name the
 * line and the field. Named columns after l1..ln (not lK: `isopter export --stages` writes hpa, gss2, agis, cigts) are
 * read past and not checked; R's visualFields would take them for locations, so the default export writes none.
 */
export const infoColumns = ["id", "eye", "date", "time", "age", "type", "fpr", "fnr", "fl", "duration"] as const;

/** The `type` column: our strategy names (read back to tell a screening row from a thresholding one). */
export const csvStrategyNames = Object.fromEntries(Object.entries(strategyCodes).map(([s, c]) => [s, c.csv])) as Record<Strategy, string>;
const screeningTypes = new Set(screeningStrategies.map((s) => csvStrategyNames[s]));

/** A row whose l-values are screening levels (supra, 1lt) rather than thresholds. */
export const isScreeningType = (type: string): boolean => screeningTypes.has(type.trim().toLowerCase());

/** A stored per-location value as the CSV writes it (screening: a miss, stored as 0, becomes -1). */
export const csvLocationValue = (stored: number, screening: boolean): number => (screening && stored <= 0 ? -1 : stored);

/** A CSV l-value as the result stores it (the inverse of csvLocationValue). */
export const storedLocationValue = (value: number, screening: boolean): number => (screening && value < 0 ? 0 : value);

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const FiniteNumber = Schema.Finite;
export const VisualFieldRowSchema = Schema.Struct({
  id: Schema.String,
  eye: Schema.Literals(["OD", "OS", "OU"]),
  date: Schema.String.check(Schema.isPattern(datePattern)),
  time: Schema.String,
  age: FiniteNumber,
  type: Schema.String,
  fpr: FiniteNumber,
  fnr: FiniteNumber,
  fl: FiniteNumber,
  duration: Schema.String,
  sensitivities: Schema.Array(FiniteNumber),
});
export type VisualFieldRow = Schema.Schema.Type<typeof VisualFieldRowSchema>;

export class CsvError extends Error {
  override readonly name = "CsvError";
}

const numeric = new Set(["age", "fpr", "fnr", "fl"]);

/** A cell as a number: NaN when blank; plain integers (nearly every cell) are read without Number()'s general parser. */
const toNumber = (text: string): number => numberAt(text, 0, text.length);

/** Parses and validates a visualFields CSV; throws CsvError naming the line and field on bad input. */
export function parseVisualFieldsCsv(text: string): VisualFieldRow[] {
  return [...visualFieldRows(text)];
}

/** The CSV's syntax errors as CsvError. */
function* recordsOf(text: string): Generator<CsvRecord> {
  try {
    yield* csvRecords(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new CsvError(e.message);
    throw e;
  }
}

/**
 * parseVisualFieldsCsv one row at a time: a large file is analysed at the speed of one row (isopter analyse). A file
 * without a quote character (what R, spreadsheets and our export write for these columns) is read straight from the
 * text (quoteFreeRows); any other goes through the CSV parser (recordRows). Both give the same rows and the same
 * errors: tests/analytics/visualfields-rows.test.ts holds them together.
 */
export function visualFieldRows(text: string): Generator<VisualFieldRow> {
  // (The reader itself, not a generator around it: delegating with yield* cost a resume per row.)
  return text.indexOf('"') < 0 ? quoteFreeRows(text) : recordRows(text);
}

/** visualFieldRows through the general CSV parser (csv-text.ts): quoted fields, line breaks inside them. */
export function* recordRows(text: string): Generator<VisualFieldRow> {
  const records = recordsOf(text);
  const first: CsvRecord | undefined = records.next().value ?? undefined;
  if (!first) throw new CsvError("empty CSV: expected a header line");
  const { width, locations } = headerWidth(first.fields);
  for (const { line, fields } of records) yield row(line, fields, width, locations);
}

/**
 * Checks the header (infoColumns, then l1..ln, then any named columns that are not lK) and returns its number of
 * columns and of locations.
 */
function headerWidth(fields: readonly string[]): { width: number; locations: number } {
  const header = fields.map((h) => h.trim());
  infoColumns.forEach((c, i) => {
    if (header[i] !== c) throw new CsvError(`header column ${i + 1} must be "${c}", got "${header[i] ?? ""}"`);
  });
  const rest = header.slice(infoColumns.length);
  let locations = 0;
  while (locations < rest.length && rest[locations] === `l${locations + 1}`) locations++;
  rest.forEach((h, i) => {
    if (i >= locations && (i === locations ? /^l\d*$/.test(h) || h === "" : /^l\d+$/.test(h)))
      throw new CsvError(`header column ${infoColumns.length + i + 1} must be "l${i + 1}", got "${h}"`);
  });
  if (locations === 0) throw new CsvError("no location columns l1..ln");
  return { width: header.length, locations };
}

/** A record's cells as a row; CsvError naming the line and the field when VisualFieldRowSchema would refuse it. */
function row(lineNo: number, cells: readonly string[], width: number, locations: number): VisualFieldRow {
  if (cells.length !== width) throw new CsvError(`line ${lineNo}: expected ${width} fields, got ${cells.length}`);
  const age = toNumber(cells[4]!),
    fpr = toNumber(cells[6]!),
    fnr = toNumber(cells[7]!),
    fl = toNumber(cells[8]!);
  const sensitivities = new Array<number>(locations);
  let finite = Number.isFinite(age) && Number.isFinite(fpr) && Number.isFinite(fnr) && Number.isFinite(fl);
  for (let k = 0; k < sensitivities.length; k++) {
    const v = toNumber(cells[infoColumns.length + k]!);
    sensitivities[k] = v;
    if (!Number.isFinite(v)) finite = false;
  }
  const eye = cells[1]!.trim(),
    date = cells[2]!.trim();
  // What VisualFieldRowSchema accepts, checked in place: decoding every row with the Schema cost more than the
  // analysis. A row it would refuse goes through the Schema for the message.
  if (!finite || !validEyeAndDate(eye, date)) invalid(lineNo, cells.slice(0, infoColumns.length + locations));
  return rowFrom(cells[0]!, eye, date, cells[3]!, age, cells[5]!, fpr, fnr, fl, cells[9]!, sensitivities);
}

const validEyeAndDate = (eye: string, date: string) => (eye === "OD" || eye === "OS" || eye === "OU") && isDate(date);

/** datePattern.test(date), by character (a regular expression per row showed in the profile). */
function isDate(date: string): boolean {
  if (date.length !== 10) return false;
  for (let k = 0; k < 10; k++) {
    const c = date.charCodeAt(k);
    if (k === 4 || k === 7 ? c !== MINUS : c < ZERO || c > ZERO + 9) return false;
  }
  return true;
}

/** The row of checked values (eye and date trimmed already). */
function rowFrom(
  id: string,
  eye: string,
  date: string,
  time: string,
  age: number,
  type: string,
  fpr: number,
  fnr: number,
  fl: number,
  duration: string,
  sensitivities: number[],
): VisualFieldRow {
  return {
    id: id.trim(),
    eye: eye === "OD" ? "OD" : eye === "OS" ? "OS" : "OU", // (a constant: the row's slice of the file is not kept)
    date,
    time: time.trim(),
    age,
    type: type.trim(),
    fpr,
    fnr,
    fl,
    duration: duration.trim(),
    sensitivities,
  };
}

const LF = 0x0a,
  CR = 0x0d,
  COMMA = 0x2c,
  MINUS = 0x2d,
  ZERO = 0x30;

/**
 * A quote-free file, read as csv-text.ts reads it (records end at CR, LF or CRLF, fields split at every comma, blank
 * lines skipped), but without cutting every field out: a row's fields are found by position and its numbers read in
 * place (the 64 strings a 24-2 row made were most of the parsing time and of the garbage).
 */
function* quoteFreeRows(text: string): Generator<VisualFieldRow> {
  const anyCr = text.indexOf("\r") >= 0;
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let width = -1;
  let locations = 0;
  let starts = new Int32Array(0);
  while (at < text.length) {
    let end: number;
    if (anyCr) {
      end = at;
      for (let c = text.charCodeAt(end); end < text.length && c !== LF && c !== CR; c = text.charCodeAt(++end));
    } else {
      end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
    }
    const lineNo = line++;
    const next = end + (text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? 2 : 1);
    if (end > at) {
      if (width < 0) {
        ({ width, locations } = headerWidth(text.slice(at, end).split(",")));
        starts = new Int32Array(width + 1);
      } else yield quoteFreeRow(text, at, end, lineNo, width, locations, starts);
    }
    at = next;
  }
  if (width < 0) throw new CsvError("empty CSV: expected a header line");
}

/** One record of a quote-free file; `starts` is scratch for where its fields begin. */
function quoteFreeRow(
  text: string,
  at: number,
  end: number,
  lineNo: number,
  width: number,
  locations: number,
  starts: Int32Array,
): VisualFieldRow {
  // Field k spans starts[k] up to one before starts[k + 1] (its comma, or the line's end). The location fields are
  // read as they are scanned: a plain integer (what nearly every cell is) digit by digit, anything else by numberAt.
  const first = infoColumns.length;
  const last = first + locations; // named columns after the locations are read past
  const sensitivities = new Array<number>(locations);
  let finite = true;
  let count = 0;
  let value = 0,
    negative = false,
    plain = true; // the field so far is an optional minus and digits
  starts[0] = at;
  for (let i = at; ; i++) {
    if (i < end) {
      const c = text.charCodeAt(i);
      if (c !== COMMA) {
        const digit = c - ZERO;
        if (digit >= 0 && digit <= 9) value = value * 10 + digit;
        else if (c === MINUS && i === starts[count]) negative = true;
        else plain = false;
        continue;
      }
    }
    if (count >= first && count < last) {
      const from = starts[count]!;
      // (numberAt's own fast path: a minus, at least one digit, at most 10 characters.)
      const length = i - from;
      const v = plain && length <= 10 && length > (negative ? 1 : 0) ? (negative ? -value : value) : numberAt(text, from, i);
      sensitivities[count - first] = v;
      if (!Number.isFinite(v)) finite = false;
    }
    if (++count > width || i >= end) break;
    starts[count] = i + 1;
    value = 0;
    negative = false;
    plain = true;
  }
  if (count !== width) return row(lineNo, text.slice(at, end).split(","), width, locations);
  starts[width] = end + 1;
  const age = numberAt(text, starts[4]!, starts[5]! - 1),
    fpr = numberAt(text, starts[6]!, starts[7]! - 1),
    fnr = numberAt(text, starts[7]!, starts[8]! - 1),
    fl = numberAt(text, starts[8]!, starts[9]! - 1);
  finite &&= Number.isFinite(age) && Number.isFinite(fpr) && Number.isFinite(fnr) && Number.isFinite(fl);
  const eye = fieldAt(text, starts, 1).trim(),
    date = fieldAt(text, starts, 2).trim();
  // A row to refuse is cut into cells and refused by `row`, which names the field.
  if (!finite || !validEyeAndDate(eye, date)) return row(lineNo, text.slice(at, end).split(","), width, locations);
  const id = fieldAt(text, starts, 0),
    time = fieldAt(text, starts, 3),
    type = fieldAt(text, starts, 5),
    duration = fieldAt(text, starts, 9);
  return rowFrom(id, eye, date, time, age, type, fpr, fnr, fl, duration, sensitivities);
}

const fieldAt = (text: string, starts: Int32Array, k: number): string => text.slice(starts[k]!, starts[k + 1]! - 1);

/** toNumber of text.slice(from, to): a plain integer read in place, without the slice; anything else by Number(). */
function numberAt(text: string, from: number, to: number): number {
  const negative = to > from && text.charCodeAt(from) === MINUS;
  let k = negative ? from + 1 : from;
  if (k < to && to - from <= 10) {
    let value = 0;
    for (; k < to; k++) {
      const digit = text.charCodeAt(k) - ZERO;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (k === to) return negative ? -value : value;
  }
  const cell = text.slice(from, to);
  return cell.trim() === "" ? Number.NaN : Number(cell);
}

/** Throws the CsvError naming the first offending field of a row VisualFieldRowSchema refuses. */
function invalid(lineNo: number, cells: readonly string[]): never {
  const raw: Record<string, unknown> = {};
  infoColumns.forEach((c, i) => (raw[c] = numeric.has(c) ? toNumber(cells[i]!) : cells[i]!.trim()));
  raw.sensitivities = cells.slice(infoColumns.length).map(toNumber);
  const exit = Schema.decodeUnknownExit(VisualFieldRowSchema)(raw);
  for (const c of infoColumns) {
    const v = raw[c];
    if (numeric.has(c) && !Number.isFinite(v as number))
      throw new CsvError(`line ${lineNo}, field ${c}: not a number ("${cells[infoColumns.indexOf(c)]}")`);
  }
  if (raw.eye !== "OD" && raw.eye !== "OS" && raw.eye !== "OU")
    throw new CsvError(`line ${lineNo}, field eye: must be OD, OS or OU, got "${String(raw.eye)}"`);
  if (!datePattern.test(String(raw.date))) throw new CsvError(`line ${lineNo}, field date: must be yyyy-mm-dd, got "${String(raw.date)}"`);
  const bad = (raw.sensitivities as number[]).findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new CsvError(`line ${lineNo}, field l${bad + 1}: not a number ("${cells[infoColumns.length + bad]}")`);
  throw new CsvError(`line ${lineNo}: invalid row (${exit._tag === "Failure" ? String(exit.cause) : "refused"})`);
}
