// Where text sits relative to its node's y, shared by both renderers so screen and paper agree. Fractions of the font
// size for a font whose ascent is about 0.8 em (system UI fonts): SVG draws on the alphabetic baseline, Konva from the
// top of the text box.

import type { TextNode } from "./scene.ts";

/** Offset from y to the alphabetic baseline, per baseline mode (explicit, since PDF converters ignore dominant-baseline). */
export const baselineShift = { top: 0.8, middle: 0.35, bottom: -0.2 } as const;

/** Ascent of the font as a fraction of its size (the baseline's distance below the top of a one-line text box). */
export const ascent = 0.8;

/** The alphabetic baseline's y (SVG's text y). */
export function baselineY(t: Pick<TextNode, "y" | "size" | "baseline">): number {
  return t.y + baselineShift[t.baseline] * t.size;
}

/** The top of the one-line text box (Konva's Text y, with lineHeight 1). */
export function textTopY(t: Pick<TextNode, "y" | "size" | "baseline">): number {
  return baselineY(t) - ascent * t.size;
}

/** Horizontal offset of the text box from x as a fraction of the measured text width (Konva's offsetX / width). */
export const anchorFraction = { start: 0, middle: 0.5, end: 1 } as const;

// Text extents without a renderer: widths per character in em of DejaVu Sans (the PDF's font; browsers' UI sans fonts
// run no wider for digits), so a layout can keep labels apart and a test can check that it did.

const narrow = new Set([".", ",", ":", ";", "i", "l", "j", "'", "|", "!"]);
const wide = new Set(["<", ">", "+", "=", "~", "m", "w", "M", "W", "%"]);

/** Advance width of one character in em (regular; bold digits run about 9 % wider). */
export function charEm(ch: string, bold = false): number {
  const f = bold ? 1.09 : 1;
  if (/[0-9]/.test(ch)) return 0.636 * f;
  if (ch === "-" || ch === "−") return 0.361 * f;
  if (ch === " ") return 0.318;
  if (ch === "°") return 0.5 * f;
  if (narrow.has(ch)) return 0.318 * f;
  if (wide.has(ch)) return 0.838 * f;
  if (/[A-Z]/.test(ch)) return 0.7 * f;
  if (/[\u2e80-\u9fff\uf900-\ufaff]/.test(ch)) return 1; // CJK: full width
  return 0.6 * f;
}

/** Estimated advance width of a string at `size`. */
export function textWidth(s: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of s) em += charEm(ch, bold);
  return em * size;
}

/** Height of digits and capitals above the baseline, and of descenders below it, in em. */
export const capHeight = 0.73;
export const descent = 0.24;

export interface TextBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/**
 * Where the ink of a one-line, unrotated text falls (its own coordinates): from the cap height above the baseline to
 * the baseline (to the descent when it has letters that reach below it), across its estimated width by its anchor.
 */
export function textInkBox(t: Pick<TextNode, "x" | "y" | "size" | "anchor" | "baseline" | "weight">, s: string): TextBox {
  const w = textWidth(s, t.size, t.weight === "bold");
  const x0 = t.x - anchorFraction[t.anchor] * w;
  const base = baselineY(t);
  const below = /[gjpqyQ,;()[\]{}]/.test(s) ? descent : 0.02;
  return { x0, x1: x0 + w, y0: base - capHeight * t.size, y1: base + below * t.size };
}
