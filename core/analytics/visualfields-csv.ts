import { Schema } from "effect";

/**
 * The visualFields CSV layout (one row per test): id, eye (OD/OS), date, time, age, type, fpr, fnr, fl, duration,
 * l1..ln with sensitivities in dB in location-map order (negative values code "not seen"). Parsed text is validated
 * with a Schema; errors name the row and the offending field.
 */
export const infoColumns = ["id", "eye", "date", "time", "age", "type", "fpr", "fnr", "fl", "duration"] as const;

const FiniteNumber = Schema.Finite;
export const VisualFieldRowSchema = Schema.Struct({
  id: Schema.String,
  eye: Schema.Literals(["OD", "OS"]),
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
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0]?.split(",").map((h) => h.trim());
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
  return lines.slice(1).map((line, r) => {
    const cells = line.split(",");
    const lineNo = r + 2;
    if (cells.length !== header.length)
      throw new CsvError(`line ${lineNo}: expected ${header.length} fields, got ${cells.length}`);
    const raw: Record<string, unknown> = {};
    infoColumns.forEach((c, i) => (raw[c] = numeric.has(c) ? toNumber(cells[i]!) : cells[i]!.trim()));
    raw.sensitivities = cells.slice(infoColumns.length).map(toNumber);
    const exit = decode(raw);
    if (exit._tag === "Success") return exit.value;
    // Name the offending field precisely.
    for (const c of infoColumns) {
      const v = raw[c];
      if (numeric.has(c) && !Number.isFinite(v as number)) throw new CsvError(`line ${lineNo}, field ${c}: not a number ("${cells[infoColumns.indexOf(c)]}")`);
    }
    if (raw.eye !== "OD" && raw.eye !== "OS") throw new CsvError(`line ${lineNo}, field eye: must be OD or OS, got "${String(raw.eye)}"`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(raw.date))) throw new CsvError(`line ${lineNo}, field date: must be yyyy-mm-dd, got "${String(raw.date)}"`);
    const bad = (raw.sensitivities as number[]).findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new CsvError(`line ${lineNo}, field l${bad + 1}: not a number ("${cells[infoColumns.length + bad]}")`);
    throw new CsvError(`line ${lineNo}: invalid row (${String(exit.cause)})`);
  });
}
