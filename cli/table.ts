// A plain-text table: a header, a rule, aligned columns (numbers right-aligned unless told otherwise).

export type Align = "left" | "right";

export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  // Loops, not Math.max(...column): spreading a column of some 100,000 rows (isopter analyse) overflows the call stack.
  const widths = header.map((h) => h.length);
  for (const r of rows)
    for (let i = 0; i < widths.length; i++) {
      const length = (r[i] ?? "").length;
      if (length > widths[i]!) widths[i] = length;
    }
  const left = header.map((_, i) => (align[i] ?? "right") === "left");
  const line = (cells: readonly string[]) => {
    let text = "";
    for (let i = 0; i < cells.length; i++)
      text += (i > 0 ? "  " : "") + (left[i] ? cells[i]!.padEnd(widths[i]!) : cells[i]!.padStart(widths[i]!));
    return text.trimEnd();
  };
  const lines = [line(header), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const r of rows) lines.push(line(r));
  return lines.join("\n") + "\n";
}
