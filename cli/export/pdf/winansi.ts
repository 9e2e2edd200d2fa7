// Text for the PDF standard fonts Helvetica and Helvetica-Bold (no embedding needed): WinAnsiEncoding bytes and the
// fonts' advance widths (Adobe's AFM metrics, 1/1000 em) for centring and right-aligning text as the SVG renderer does.

// Widths of the printable ASCII range 32..126.
const helvetica = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556,
  556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const helveticaBold = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611,
  611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/** WinAnsi (cp1252) bytes above 0x7f for the characters outside Latin-1 that the plots may print. */
const cp1252Extra: Record<string, number> = { "€": 0x80, "–": 0x96, "—": 0x97, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "…": 0x85 };
/** Characters with no WinAnsi byte, spelt out. */
const fallback: Record<string, string> = { "≤": "<=", "≥": ">=", "−": "-", "✓": "v", "×": "x" };

export function winAnsiBytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e) out.push(code);
    else if (cp1252Extra[ch] !== undefined) out.push(cp1252Extra[ch]);
    else if (code >= 0xa0 && code <= 0xff) out.push(code);
    else if (fallback[ch] !== undefined) out.push(...winAnsiBytes(fallback[ch]));
    else out.push(0x3f); // "?"
  }
  return out;
}

/** Width in points of `text` at `size` (Latin-1 letters outside ASCII take the width of a digit: close enough). */
export function textWidth(text: string, size: number, bold: boolean): number {
  const table = bold ? helveticaBold : helvetica;
  let units = 0;
  for (const b of winAnsiBytes(text)) units += b >= 32 && b <= 126 ? table[b - 32]! : 556;
  return (units / 1000) * size;
}

/** A PDF hex string of the WinAnsi bytes: no escaping of parentheses or backslashes needed. */
export const pdfHexString = (text: string) => `<${winAnsiBytes(text).map((b) => b.toString(16).padStart(2, "0")).join("")}>`;
