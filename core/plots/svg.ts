// Serialises a scene to a standalone SVG document (pure string building): what tests, the CLI report and PDF export use.

import { resolveText, type Translate } from "./message.ts";
import { plotPalette, resolveColour, type Colour } from "./palette.ts";
import type { Scene, SceneNode, TextNode } from "./scene.ts";
import { symbolShapes } from "./symbols.ts";
import { baselineY } from "./text-metrics.ts";

export interface SvgOptions {
  readonly translate?: Translate;
  /** Token name to hex; defaults to plotPalette. */
  readonly palette?: Readonly<Record<string, string>>;
  readonly fontFamily?: string;
}

const defaultFont = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** Numbers to at most 2 decimals, without trailing zeros. */
const n = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? "0" : String(r);
};

const anchors = { start: "start", middle: "middle", end: "end" } as const;

export function toSvg(scene: Scene, options: SvgOptions = {}): string {
  const palette = options.palette ?? plotPalette;
  const colour = (c: Colour | undefined) => (c === undefined ? "none" : resolveColour(c, palette));
  const stroke = (node: { stroke?: Colour; strokeWidth?: number; dash?: readonly number[] }) =>
    node.stroke === undefined
      ? ""
      : ` stroke="${colour(node.stroke)}" stroke-width="${n(node.strokeWidth ?? 1)}"${node.dash ? ` stroke-dasharray="${node.dash.map(n).join(" ")}"` : ""}`;

  const textNode = (t: TextNode) => {
    const y = baselineY(t);
    const style = t.tabular ? ` font-variant-numeric="tabular-nums" style="font-variant-numeric: tabular-nums"` : "";
    const rotate = t.rotation ? ` transform="rotate(${n(t.rotation)} ${n(t.x)} ${n(t.y)})"` : "";
    // SVG cannot measure: a browser drawing this scales a wider text down to it (fitSvgTexts), as the PDF does.
    const max = t.maxWidth !== undefined ? ` data-max-width="${n(t.maxWidth)}" data-x="${n(t.x)}" data-y="${n(t.y)}"` : "";
    return `<text x="${n(t.x)}" y="${n(y)}" font-size="${n(t.size)}" text-anchor="${anchors[t.anchor]}" font-weight="${t.weight}" fill="${colour(t.fill)}"${style}${rotate}${max}>${escapeXml(resolveText(t.text, options.translate))}</text>`;
  };

  const node = (s: SceneNode): string => {
    switch (s.kind) {
      case "rect":
        return `<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.width)}" height="${n(s.height)}" fill="${colour(s.fill)}"${stroke(s)}/>`;
      case "circle":
        return `<circle cx="${n(s.cx)}" cy="${n(s.cy)}" r="${n(s.r)}" fill="${colour(s.fill)}"${stroke(s)}/>`;
      case "line":
        return `<line x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}"${stroke(s)}/>`;
      case "polyline": {
        const pts: string[] = [];
        for (let i = 0; i + 1 < s.points.length; i += 2) pts.push(`${n(s.points[i]!)},${n(s.points[i + 1]!)}`);
        const tag = s.closed ? "polygon" : "polyline";
        return `<${tag} points="${pts.join(" ")}" fill="${colour(s.fill)}"${stroke(s)} stroke-linejoin="round"/>`;
      }
      case "text":
        return textNode(s);
      case "symbol":
        return `<g data-level="${s.level}">${symbolShapes(s).map(node).join("")}</g>`;
      case "group": {
        const scale = s.scale !== undefined && s.scale !== 1 ? ` scale(${n(s.scale)})` : "";
        const role = s.role ? ` data-role="${escapeXml(s.role)}"` : "";
        return `<g transform="translate(${n(s.x)} ${n(s.y)})${scale}"${role}>${s.children.map(node).join("")}</g>`;
      }
    }
  };

  const title = scene.title ? `<title>${escapeXml(resolveText(scene.title, options.translate))}</title>` : "";
  const background = scene.background
    ? `<rect x="0" y="0" width="${n(scene.width)}" height="${n(scene.height)}" fill="${colour(scene.background)}"/>`
    : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(scene.width)}" height="${n(scene.height)}" viewBox="0 0 ${n(scene.width)} ${n(scene.height)}"` +
    ` font-family="${escapeXml(options.fontFamily ?? defaultFont)}" data-plot="${escapeXml(scene.plot)}">` +
    title +
    background +
    scene.nodes.map(node).join("") +
    `</svg>`
  );
}

/** Kept here too for renderers that import it from the SVG writer (cli/export/pdf). */
export { baselineShift } from "./text-metrics.ts";
