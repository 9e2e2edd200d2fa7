// Scene -> drawing instructions for a canvas, as plain data (canvas-draw.ts draws them inside one Konva shape).
// Kept apart from react-konva so the mapping is tested without a canvas (happy-dom has none) and so the page bundle
// only pulls Konva in where a plot is drawn. The recipe is core/plots/index.ts' header; text sits on the alphabetic
// baseline core/plots' shared metrics give (text-metrics.ts), the same one the SVG print uses, so screen and paper agree.

import { resolveText, type Translate } from "../../core/plots/message.ts";
import { plotPalette, resolveColour, type Colour } from "../../core/plots/palette.ts";
import type { Scene, SceneNode, TextNode } from "../../core/plots/scene.ts";
import { symbolShapes } from "../../core/plots/symbols.ts";
import { baselineY } from "../../core/plots/text-metrics.ts";

interface StrokeProps {
  readonly stroke?: string;
  readonly strokeWidth?: number;
  readonly dash?: number[];
}

export type Shape =
  | ({
      readonly type: "rect";
      readonly x: number;
      readonly y: number;
      readonly width: number;
      readonly height: number;
      readonly fill?: string;
    } & StrokeProps)
  | ({ readonly type: "circle"; readonly x: number; readonly y: number; readonly radius: number; readonly fill?: string } & StrokeProps)
  | ({ readonly type: "line"; readonly points: number[]; readonly closed: boolean; readonly fill?: string } & StrokeProps)
  | {
      readonly type: "text";
      /** The anchor point: alignment and rotation are about it. */
      readonly x: number;
      readonly y: number;
      readonly text: string;
      readonly fontSize: number;
      readonly fontStyle: "normal" | "bold";
      readonly fontFamily: string;
      readonly fill: string;
      /** Canvas textAlign at the anchor: start, middle or end of the text. */
      readonly align: "left" | "center" | "right";
      /** Drawn no wider than this: the font is set smaller to fit (canvas-draw.ts). */
      readonly maxWidth?: number;
      /** The alphabetic baseline's distance below y, in px (text-metrics.ts baselineY - y). */
      readonly baseline: number;
      /** Degrees, clockwise, about (x, y). */
      readonly rotation: number;
    }
  | {
      readonly type: "group";
      readonly x: number;
      readonly y: number;
      readonly scaleX: number;
      readonly scaleY: number;
      readonly name?: string;
      readonly children: Shape[];
    };

export interface ShapeOptions {
  readonly translate?: Translate;
  readonly palette?: Readonly<Record<string, string>>;
  readonly fontFamily?: string;
  /** Font of tabular text. Canvas has no font-variant-numeric, and Konva's fontVariant only feeds the canvas `font`
   * shorthand (normal or small-caps), so columns of numbers align through a family whose digits are tabular by default. */
  readonly tabularFontFamily?: string;
}

export const plotFontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
export const tabularFontFamily = "Roboto, 'Segoe UI', 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif";

const align = { start: "left", middle: "center", end: "right" } as const;

export function textShape(t: TextNode, options: ShapeOptions = {}): Shape {
  return {
    type: "text",
    x: t.x,
    y: t.y,
    text: resolveText(t.text, options.translate),
    fontSize: t.size,
    fontStyle: t.weight,
    fontFamily: t.tabular ? (options.tabularFontFamily ?? tabularFontFamily) : (options.fontFamily ?? plotFontFamily),
    fill: resolveColour(t.fill, options.palette ?? plotPalette),
    align: align[t.anchor],
    baseline: baselineY(t) - t.y,
    rotation: t.rotation ?? 0,
    ...(t.maxWidth !== undefined ? { maxWidth: t.maxWidth } : {}),
  };
}

/** The shapes of a list of scene nodes, in drawing order (symbols expanded into their primitives). */
export function nodeShapes(nodes: readonly SceneNode[], options: ShapeOptions = {}): Shape[] {
  const palette = options.palette ?? plotPalette;
  const colour = (c: Colour | undefined) => (c === undefined ? undefined : resolveColour(c, palette));
  const stroke = (n: { stroke?: Colour; strokeWidth?: number; dash?: readonly number[] }): StrokeProps =>
    n.stroke === undefined ? {} : { stroke: colour(n.stroke)!, strokeWidth: n.strokeWidth ?? 1, ...(n.dash ? { dash: [...n.dash] } : {}) };
  const fill = (c: Colour | undefined) => (c === undefined ? {} : { fill: colour(c)! });
  const one = (n: SceneNode): Shape[] => {
    switch (n.kind) {
      case "rect":
        return [{ type: "rect", x: n.x, y: n.y, width: n.width, height: n.height, ...fill(n.fill), ...stroke(n) }];
      case "circle":
        return [{ type: "circle", x: n.cx, y: n.cy, radius: n.r, ...fill(n.fill), ...stroke(n) }];
      case "line":
        return [{ type: "line", points: [n.x1, n.y1, n.x2, n.y2], closed: false, ...stroke(n) }];
      case "polyline":
        return [{ type: "line", points: [...n.points], closed: n.closed ?? false, ...fill(n.fill), ...stroke(n) }];
      case "text":
        return [textShape(n, options)];
      case "symbol":
        return symbolShapes(n).flatMap(one);
      case "group":
        return [
          {
            type: "group",
            x: n.x,
            y: n.y,
            scaleX: n.scale ?? 1,
            scaleY: n.scale ?? 1,
            ...(n.role ? { name: n.role } : {}),
            children: n.children.flatMap(one),
          },
        ];
    }
  };
  return nodes.flatMap(one);
}

/** Everything a renderer draws for a scene: the background as a full-size rect, then the nodes in order. */
export function sceneShapes(scene: Scene, options: ShapeOptions = {}): Shape[] {
  const background: Shape[] = scene.background
    ? [
        {
          type: "rect",
          x: 0,
          y: 0,
          width: scene.width,
          height: scene.height,
          fill: resolveColour(scene.background, options.palette ?? plotPalette),
        },
      ]
    : [];
  return [...background, ...nodeShapes(scene.nodes, options)];
}

/** Every text a list of shapes draws, depth first (tests and accessible descriptions). */
export function shapeTexts(shapes: readonly Shape[]): string[] {
  return shapes.flatMap((s) => (s.type === "text" ? [s.text] : s.type === "group" ? shapeTexts(s.children) : []));
}

/** Number of primitives (not groups) in a shape list: what the canvas draws. */
export function shapeCount(shapes: readonly Shape[]): number {
  return shapes.reduce((n, s) => n + (s.type === "group" ? shapeCount(s.children) : 1), 0);
}
