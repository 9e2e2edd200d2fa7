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
