import { resolveText, type Translate } from "../../../core/plots/message.ts";
import { plotPalette, resolveColour, type Colour } from "../../../core/plots/palette.ts";
import type { Scene, SceneNode, TextNode } from "../../../core/plots/scene.ts";
import { symbolShapes } from "../../../core/plots/symbols.ts";
import { baselineShift } from "../../../core/plots/text-metrics.ts";

// A core/plots scene drawn on a pdfkit page, node for node as core/plots/svg.ts writes SVG: the same coordinates
// (pdfkit's y points down like the scene's), colours from the same palette, text on the same baseline rule. Text
// runs in the regular or bold font; characters those lack (Chinese) in the fallback font, run by run.

export interface FontNames {
  readonly regular: string;
  readonly bold: string;
  readonly fallback: string;
}

/** The part of a pdfkit document the renderer uses. */
export type Doc = PDFKit.PDFDocument;

/** Splits text into runs of one font: the main font where it has the glyph, else the fallback. */
export function fontRuns(content: string, has: (codePoint: number) => boolean): Array<{ text: string; fallback: boolean }> {
  const runs: Array<{ text: string; fallback: boolean }> = [];
  for (const ch of content) {
    const fallback = !has(ch.codePointAt(0)!) && ch.trim() !== "";
    const last = runs.at(-1);
    if (last && last.fallback === fallback) last.text += ch;
    else runs.push({ text: ch, fallback });
  }
  return runs;
}

export function drawScene(
  doc: Doc,
  scene: Scene,
  fonts: FontNames,
  options: { translate?: Translate; palette?: Readonly<Record<string, string>> } = {},
): void {
  const palette = options.palette ?? plotPalette;
  const colour = (c: Colour) => resolveColour(c, palette);
  const glyphs = new Map<string, (cp: number) => boolean>();
  /** Text widths by font, size and text: a page repeats the same numbers hundreds of times. */
  const widths = new Map<string, number>();
  const hasGlyph = (font: string) => {
    let has = glyphs.get(font);
    if (!has) {
      doc.font(font);
      const f = (doc as unknown as { _font: { font?: { hasGlyphForCodePoint(cp: number): boolean } } })._font.font;
      has = f ? (cp) => f.hasGlyphForCodePoint(cp) : () => true;
      glyphs.set(font, has);
    }
    return has;
  };

  const paint = (node: { fill?: Colour; stroke?: Colour; strokeWidth?: number; dash?: readonly number[] }, closed: boolean) => {
    const fill = closed && node.fill !== undefined;
    if (node.stroke !== undefined) {
      doc.lineWidth(node.strokeWidth ?? 1);
      if (node.dash?.length) doc.dash(node.dash[0]!, { space: node.dash[1] ?? node.dash[0]! });
      else doc.undash();
    }
    if (fill && node.stroke !== undefined) doc.fillAndStroke(colour(node.fill!), colour(node.stroke));
    else if (fill) doc.fill(colour(node.fill!));
    else if (node.stroke !== undefined) doc.stroke(colour(node.stroke));
  };

  const drawText = (t: TextNode) => {
    const content = resolveText(t.text, options.translate);
    if (content === "") return;
    const main = t.weight === "bold" ? fonts.bold : fonts.regular;
    const runs = fontRuns(content, hasGlyph(main));
    const widthOf = (run: { text: string; fallback: boolean }) => {
      const font = run.fallback ? fonts.fallback : main;
      const key = `${font}|${t.size}|${run.text}`;
      let w = widths.get(key);
      if (w === undefined) widths.set(key, (w = doc.font(font).fontSize(t.size).widthOfString(run.text)));
      return w;
    };
    const width = runs.reduce((w, run) => w + widthOf(run), 0);
    const dx = t.anchor === "middle" ? -width / 2 : t.anchor === "end" ? -width : 0;
    doc.save();
    doc.translate(t.x, t.y);
    if (t.rotation) doc.rotate(t.rotation, { origin: [0, 0] });
    // A text wider than its room is drawn smaller about its anchor point (never cut), as the web's print does.
    if (t.maxWidth !== undefined && width > t.maxWidth) doc.scale(t.maxWidth / width);
    // pdfkit places text by the top of its line box (ascender); the scene's rule is the alphabetic baseline at
    // baselineShift x size below y: move up by the font's ascent to land the baseline there.
    let x = dx;
    for (const run of runs) {
      const w = widthOf(run);
      doc
        .font(run.fallback ? fonts.fallback : main)
        .fontSize(t.size)
        .fillColor(colour(t.fill));
      const ascent = ((doc as unknown as { _font: { ascender: number } })._font.ascender / 1000) * t.size;
      doc.text(run.text, x, baselineShift[t.baseline] * t.size - ascent, { lineBreak: false });
      x += w;
    }
    doc.restore();
  };

  const node = (s: SceneNode): void => {
    switch (s.kind) {
      case "rect":
        doc.rect(s.x, s.y, s.width, s.height);
        return paint(s, true);
      case "circle":
        doc.circle(s.cx, s.cy, s.r);
        return paint(s, true);
      case "line":
        doc.moveTo(s.x1, s.y1).lineTo(s.x2, s.y2);
        return paint(s, false);
      case "polyline": {
        if (s.points.length < 4) return;
        doc.moveTo(s.points[0]!, s.points[1]!);
        for (let i = 2; i + 1 < s.points.length; i += 2) doc.lineTo(s.points[i]!, s.points[i + 1]!);
        if (s.closed) doc.closePath();
        doc.lineJoin("round");
        // SVG fills an open polyline too when it has a fill; keep that.
        return paint(s, s.fill !== undefined);
      }
      case "text":
        return drawText(s);
      case "symbol":
        return symbolShapes(s).forEach(node);
      case "group":
        doc.save();
        doc.translate(s.x, s.y);
        if (s.scale !== undefined && s.scale !== 1) doc.scale(s.scale);
        s.children.forEach(node);
        doc.restore();
        return;
    }
  };

  doc.save();
  if (scene.background !== undefined) doc.rect(0, 0, scene.width, scene.height).fill(colour(scene.background));
  scene.nodes.forEach(node);
  doc.restore();
}
