// A plain-text table: a header, a rule, aligned columns (numbers right-aligned unless told otherwise).

export type Align = "left" | "right";

/** One column of a table: its cells by row, and the width of the widest. */
export interface Column {
  readonly header: string;
  readonly align: Align;
  readonly rows: number;
  readonly widest: () => number;
  readonly cell: (row: number) => string;
}

/** A column of texts as given. */
export class TextColumn implements Column {
  private readonly values: string[] = [];
  private width = 0;
  constructor(
    readonly header: string,
    readonly align: Align = "right",
  ) {}
  get rows(): number {
    return this.values.length;
  }
  push(text: string): void {
    this.values.push(text);
    if (text.length > this.width) this.width = text.length;
  }
  widest(): number {
    return this.width;
  }
  cell(row: number): string {
    return this.values[row]!;
  }
}

/**
 * A column of numbers printed with `digits` decimals ("-" when there is none): kept as numbers and formatted as the
 * lines are written, so a table of 100,000 rows (isopter analyse) holds no cell texts. The widest cell is found from
 * the extremes: below 1e21 toFixed's length only grows with the magnitude, and a negative number's text is "-" and its
 * magnitude's.
 */
export class FixedColumn implements Column {
  private values = new Float64Array(1024);
  private count = 0;
  private max = Number.NEGATIVE_INFINITY;
  private min = Number.POSITIVE_INFINITY;
  private missing = false;
  constructor(
    readonly header: string,
    private readonly digits: number,
    readonly align: Align = "right",
  ) {}
  get rows(): number {
    return this.count;
  }
  push(value: number | null): void {
    const v = value ?? Number.NaN;
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = v;
    if (!Number.isFinite(v)) this.missing = true;
    else {
      if (v > this.max) this.max = v;
      if (v < this.min) this.min = v;
    }
  }
  widest(): number {
    let width = this.missing ? 1 : 0;
    if (this.max < this.min) return width; // no number
    // (From 1e21 on, toFixed writes the exponent form, shorter: then every number is measured.)
    if (this.max < 1e21 && this.min > -1e21)
      return Math.max(width, this.max.toFixed(this.digits).length, this.min.toFixed(this.digits).length);
    for (let row = 0; row < this.count; row++) width = Math.max(width, this.cell(row).length);
    return width;
  }
  cell(row: number): string {
    const v = this.values[row]!;
    return Number.isFinite(v) ? fixedText(v, this.digits) : "-";
  }
}

/**
 * The table's text in pieces of about `chunkChars` characters (the same text once joined): columns two spaces apart,
 * each as wide as its header or widest cell, no trailing blanks.
 */
export function* tableChunks(columns: readonly Column[], chunkChars = 1 << 16): Generator<string> {
  const widths = columns.map((c) => Math.max(c.header.length, c.widest()));
  const left = columns.map((c) => c.align === "left");
  const rows = columns.reduce((n, c) => Math.max(n, c.rows), 0);
  const spaces = Array.from({ length: Math.max(0, ...widths) + 1 }, (_, n) => " ".repeat(n));
  const pad = (i: number, s: string) => {
    const fill = spaces[widths[i]! - s.length] ?? "";
    return left[i] ? s + fill : fill + s;
  };
  let chunk =
    columns
      .map((c, i) => pad(i, c.header))
      .join("  ")
      .trimEnd() +
    "\n" +
    widths.map((w) => "-".repeat(w)).join("  ") +
    "\n";
  for (let row = 0; row < rows; row++) {
    let line = "";
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      line += (i > 0 ? "  " : "") + pad(i, row < column.rows ? column.cell(row) : "");
    }
    chunk += (endsInText(line) ? line : line.trimEnd()) + "\n";
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = "";
    }
  }
  yield chunk;
}

/** ".0" to ".9", ".00" to ".99", ".000" to ".999": the decimals' texts by their value. */
const DECIMALS = [0, 1, 2, 3].map((digits) =>
  Array.from({ length: 10 ** digits }, (_, n) => (digits === 0 ? "" : "." + String(n).padStart(digits, "0"))),
);

/**
 * v.toFixed(digits) for a finite v, about three times as fast for up to 3 digits (a long table's numbers): the scaled
 * magnitude rounded half up, as toFixed rounds the exact value. The scaled double is off the exact product by far
 * less than 1e-6 below 1e9, so only a product that close to a half can round otherwise; those, and larger numbers,
 * go to toFixed. A negative number is "-" and its magnitude's text, -0 none (as toFixed; tests/cli/table.test.ts).
 */
export function fixedText(v: number, digits: number): string {
  const decimals = DECIMALS[digits];
  if (decimals === undefined) return v.toFixed(digits);
  const scale = decimals.length;
  const scaled = (v < 0 ? -v : v) * scale;
  if (!(scaled < 1e9)) return v.toFixed(digits);
  const whole = Math.floor(scaled),
    fraction = scaled - whole;
  if (fraction > 0.499999 && fraction < 0.500001) return v.toFixed(digits);
  const n = fraction > 0.5 ? whole + 1 : whole;
  const units = Math.floor(n / scale);
  const text = units + decimals[n - units * scale]!;
  return v < 0 ? "-" + text : text;
}

/** Whether the text ends in a printable ASCII character, so trimEnd has nothing to take. */
const endsInText = (text: string): boolean => {
  const c = text.charCodeAt(text.length - 1);
  return c > 0x20 && c < 0x7f;
};

/** A table of text cells, whole. */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  const columns = header.map((h, i) => new TextColumn(h, align[i] ?? "right"));
  for (const r of rows) columns.forEach((c, i) => c.push(r[i] ?? ""));
  return [...tableChunks(columns)].join("");
}
