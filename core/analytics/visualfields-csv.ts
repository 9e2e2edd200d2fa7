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
 * line and the field.
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
function toNumber(text: string): number {
  const n = text.length;
  let k = n > 0 && text.charCodeAt(0) === 0x2d ? 1 : 0; // "-"
  if (k < n && n <= 10) {
    let value = 0;
    for (; k < n; k++) {
      const digit = text.charCodeAt(k) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (k === n) return text.charCodeAt(0) === 0x2d ? -value : value;
  }
  return text.trim() === "" ? NaN : Number(text);
}

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

/** parseVisualFieldsCsv one row at a time: a large file is analysed at the speed of one row (isopter analyse). */
export function* visualFieldRows(text: string): Generator<VisualFieldRow> {
  const records = recordsOf(text);
  const first: CsvRecord | undefined = records.next().value ?? undefined;
  const header = first?.fields.map((h) => h.trim());
  if (!header) throw new CsvError("empty CSV: expected a header line");
  infoColumns.forEach((c, i) => {
    if (header[i] !== c) throw new CsvError(`header column ${i + 1} must be "${c}", got "${header[i] ?? ""}"`);
  });
  const locs = header.slice(infoColumns.length);
  locs.forEach((h, i) => {
    if (h !== `l${i + 1}`) throw new CsvError(`header column ${infoColumns.length + i + 1} must be "l${i + 1}", got "${h}"`);
  });
  if (locs.length === 0) throw new CsvError("no location columns l1..ln");
  const width = header.length;
  for (const { line: lineNo, fields: cells } of records) yield row(lineNo, cells);

  function row(lineNo: number, cells: string[]): VisualFieldRow {
    if (cells.length !== width) throw new CsvError(`line ${lineNo}: expected ${width} fields, got ${cells.length}`);
    const eye = cells[1]!.trim(),
      date = cells[2]!.trim(),
      age = toNumber(cells[4]!),
      fpr = toNumber(cells[6]!),
      fnr = toNumber(cells[7]!),
      fl = toNumber(cells[8]!);
    const sensitivities = new Array<number>(width - infoColumns.length);
    let finite = Number.isFinite(age) && Number.isFinite(fpr) && Number.isFinite(fnr) && Number.isFinite(fl);
    for (let k = 0; k < sensitivities.length; k++) {
      const v = toNumber(cells[infoColumns.length + k]!);
      sensitivities[k] = v;
      if (!Number.isFinite(v)) finite = false;
    }
    // What VisualFieldRowSchema accepts, checked in place: decoding every row with the Schema cost more than the
    // analysis. A row it would refuse goes through the Schema for the message.
    if (!finite || (eye !== "OD" && eye !== "OS" && eye !== "OU") || !datePattern.test(date)) invalid(lineNo, cells);
    const [id, , , time, , type, , , , duration] = cells;
    return {
      id: id!.trim(),
      eye,
      date,
      time: time!.trim(),
      age,
      type: type!.trim(),
      fpr,
      fnr,
      fl,
      duration: duration!.trim(),
      sensitivities,
    };
  }
}

/** Throws the CsvError naming the first offending field of a row VisualFieldRowSchema refuses. */
function invalid(lineNo: number, cells: string[]): never {
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
