import { resolveText, type Translate } from "../../../core/plots/message.ts";
import { plotPalette, resolveColour, type Colour } from "../../../core/plots/palette.ts";
import type { Scene, SceneNode, TextNode } from "../../../core/plots/scene.ts";
import { baselineShift } from "../../../core/plots/svg.ts";
import { symbolShapes } from "../../../core/plots/symbols.ts";
import { pdfHexString, textWidth } from "./winansi.ts";

// A core/plots scene as PDF content-stream operators: the same primitives core/plots/svg.ts writes as SVG elements,
// drawn straight from the scene (no SVG parsing). The caller places the scene with a `cm` that makes y point down,
// so scene coordinates are used unchanged; text is un-flipped by its own text matrix.

export interface PdfSceneOptions {
  readonly translate?: Translate;
  readonly palette?: Readonly<Record<string, string>>;
}

/** Font resource names the document defines (pdf-document.ts). */
export const FONT_REGULAR = "F1";
export const FONT_BOLD = "F2";

const n = (v: number) => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? "0" : String(r);
};

function rgb(hex: string): [number, number, number] {
  let h = hex.replace("#", "");
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join("");
  const v = (i: number) => Math.round((parseInt(h.slice(i, i + 2), 16) / 255) * 1000) / 1000;
  return [v(0), v(2), v(4)];
}

export function sceneOperators(scene: Scene, options: PdfSceneOptions = {}): string {
  const palette = options.palette ?? plotPalette;
  const ops: string[] = [];
  const fillColour = (c: Colour) => ops.push(`${rgb(resolveColour(c, palette)).map(n).join(" ")} rg`);
  const strokeColour = (c: Colour) => ops.push(`${rgb(resolveColour(c, palette)).map(n).join(" ")} RG`);

  /** Sets fill and stroke state and returns the painting operator (f, S, B or n). */
  const paint = (node: { fill?: Colour; stroke?: Colour; strokeWidth?: number; dash?: readonly number[] }, closedPath: boolean): string => {
    const fill = closedPath && node.fill !== undefined;
    if (fill) fillColour(node.fill!);
    if (node.stroke !== undefined) {
      strokeColour(node.stroke);
      ops.push(`${n(node.strokeWidth ?? 1)} w`, node.dash ? `[${node.dash.map(n).join(" ")}] 0 d` : "[] 0 d");
    }
    return fill && node.stroke !== undefined ? "B" : fill ? "f" : node.stroke !== undefined ? "S" : "n";
  };

  const textOps = (t: TextNode) => {
    const content = resolveText(t.text, options.translate);
    if (content === "") return;
    const bold = t.weight === "bold";
    const width = textWidth(content, t.size, bold);
    const dx = t.anchor === "middle" ? -width / 2 : t.anchor === "end" ? -width : 0;
    const shift = baselineShift[t.baseline] * t.size;
    const a = ((t.rotation ?? 0) * Math.PI) / 180;
    const cos = Math.cos(a), sin = Math.sin(a);
    fillColour(t.fill);
    // Text matrix: flip back to y-up glyphs, then rotate as SVG's rotate(deg) in the y-down scene.
    ops.push(
      "BT",
      `/${bold ? FONT_BOLD : FONT_REGULAR} ${n(t.size)} Tf`,
      `${n(cos)} ${n(sin)} ${n(sin)} ${n(-cos)} ${n(t.x)} ${n(t.y)} Tm`,
      `${n(dx)} ${n(-shift)} Td`,
      `${pdfHexString(content)} Tj`,
      "ET",
    );
  };

  const node = (s: SceneNode): void => {
    switch (s.kind) {
      case "rect": {
        // Graphics state first: PDF allows no other operator between a path and its painting operator.
        const op = paint(s, true);
        ops.push(`${n(s.x)} ${n(s.y)} ${n(s.width)} ${n(s.height)} re`, op);
        return;
      }
      case "circle": {
        // Four cubic Béziers; k = 4/3 (sqrt 2 - 1) gives a circle within 0.03 %.
        const k = 0.5522847498 * s.r, { cx, cy, r } = s;
        const op = paint(s, true);
        ops.push(
          `${n(cx + r)} ${n(cy)} m`,
          `${n(cx + r)} ${n(cy + k)} ${n(cx + k)} ${n(cy + r)} ${n(cx)} ${n(cy + r)} c`,
          `${n(cx - k)} ${n(cy + r)} ${n(cx - r)} ${n(cy + k)} ${n(cx - r)} ${n(cy)} c`,
          `${n(cx - r)} ${n(cy - k)} ${n(cx - k)} ${n(cy - r)} ${n(cx)} ${n(cy - r)} c`,
          `${n(cx + k)} ${n(cy - r)} ${n(cx + r)} ${n(cy - k)} ${n(cx + r)} ${n(cy)} c`,
          "h",
          op,
        );
        return;
      }
      case "line": {
        const op = paint(s, false);
        ops.push(`${n(s.x1)} ${n(s.y1)} m ${n(s.x2)} ${n(s.y2)} l`, op);
        return;
      }
      case "polyline": {
        if (s.points.length < 4) return;
        const parts = [`${n(s.points[0]!)} ${n(s.points[1]!)} m`];
        for (let i = 2; i + 1 < s.points.length; i += 2) parts.push(`${n(s.points[i]!)} ${n(s.points[i + 1]!)} l`);
        if (s.closed) parts.push("h");
        // SVG fills an open polyline too when it has a fill; keep that.
        const op = paint(s, s.fill !== undefined);
        ops.push("1 j", parts.join(" "), op);
        return;
      }
      case "text":
        return textOps(s);
      case "symbol":
        for (const shape of symbolShapes(s)) node(shape);
        return;
      case "group":
        ops.push("q", `1 0 0 1 ${n(s.x)} ${n(s.y)} cm`);
        if (s.scale !== undefined && s.scale !== 1) ops.push(`${n(s.scale)} 0 0 ${n(s.scale)} 0 0 cm`);
        s.children.forEach(node);
        ops.push("Q");
        return;
    }
  };

  ops.push("q");
  if (scene.background !== undefined) {
    fillColour(scene.background);
    ops.push(`0 0 ${n(scene.width)} ${n(scene.height)} re f`);
  }
  scene.nodes.forEach(node);
  ops.push("Q");
  return ops.join("\n");
}

/**
 * Operators placing a scene on a page of height `pageHeight` (PDF's y goes up) with its top-left corner at (x, y)
 * measured from the page's top-left, scaled by `scale`.
 */
export function placeScene(scene: Scene, pageHeight: number, x: number, y: number, scale = 1, options: PdfSceneOptions = {}): string {
  return `q\n${n(scale)} 0 0 ${n(-scale)} ${n(x)} ${n(pageHeight - y)} cm\n${sceneOperators(scene, options)}\nQ`;
}
