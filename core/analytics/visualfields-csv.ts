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

const FiniteNumber = Schema.Finite;
export const VisualFieldRowSchema = Schema.Struct({
  id: Schema.String,
  eye: Schema.Literals(["OD", "OS", "OU"]),
  date: Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/)),
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

function toNumber(text: string): number {
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
  const decode = Schema.decodeUnknownExit(VisualFieldRowSchema);
  const width = header.length;
  for (const { line: lineNo, fields: cells } of records) yield row(lineNo, cells);

  function row(lineNo: number, cells: string[]): VisualFieldRow {
    if (cells.length !== width) throw new CsvError(`line ${lineNo}: expected ${width} fields, got ${cells.length}`);
    const raw: Record<string, unknown> = {};
    infoColumns.forEach((c, i) => (raw[c] = numeric.has(c) ? toNumber(cells[i]!) : cells[i]!.trim()));
    raw.sensitivities = cells.slice(infoColumns.length).map(toNumber);
    const exit = decode(raw);
    if (exit._tag === "Success") return exit.value;
    // Name the offending field precisely.
    for (const c of infoColumns) {
      const v = raw[c];
      if (numeric.has(c) && !Number.isFinite(v as number))
        throw new CsvError(`line ${lineNo}, field ${c}: not a number ("${cells[infoColumns.indexOf(c)]}")`);
    }
    if (raw.eye !== "OD" && raw.eye !== "OS" && raw.eye !== "OU")
      throw new CsvError(`line ${lineNo}, field eye: must be OD, OS or OU, got "${String(raw.eye)}"`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(raw.date)))
      throw new CsvError(`line ${lineNo}, field date: must be yyyy-mm-dd, got "${String(raw.date)}"`);
    const bad = (raw.sensitivities as number[]).findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new CsvError(`line ${lineNo}, field l${bad + 1}: not a number ("${cells[infoColumns.length + bad]}")`);
    throw new CsvError(`line ${lineNo}: invalid row (${String(exit.cause)})`);
  }
}
