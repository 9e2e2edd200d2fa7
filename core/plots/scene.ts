// A scene is plain data that a renderer draws one to one: react-konva on screen, the SVG/PDF writer in the CLI and print.
// Coordinates are pixels (or points on paper), origin top left, y down. Nothing here knows about a DOM or a canvas.

import type { Colour } from "./palette.ts";

/**
 * User-facing text: a message id the renderer may translate, with the English default and {name} placeholders.
 * A value may itself be a message (e.g. the kind of an Amsler finding), translated before it is filled in.
 */
export interface Message {
  readonly id: string;
  readonly default: string;
  readonly values?: Readonly<Record<string, string | number | Message>>;
}

/** Literal text (numbers, units) is a plain string; words the user reads are Messages. */
export type SceneText = string | Message;

export interface Stroke {
  readonly stroke?: Colour;
  readonly strokeWidth?: number;
  /** Dash pattern as [on, off, ...] lengths. */
  readonly dash?: readonly number[];
}

export interface RectNode extends Stroke {
  readonly kind: "rect";
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly fill?: Colour;
}

export interface CircleNode extends Stroke {
  readonly kind: "circle";
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly fill?: Colour;
}

export interface LineNode extends Stroke {
  readonly kind: "line";
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** An open or closed polyline; `points` is flat [x0, y0, x1, y1, ...] (what Konva's Line takes). */
export interface PolylineNode extends Stroke {
  readonly kind: "polyline";
  readonly points: readonly number[];
  readonly closed?: boolean;
  readonly fill?: Colour;
}

export type TextAnchor = "start" | "middle" | "end";
/** Vertical alignment of the text box against y. */
export type TextBaseline = "top" | "middle" | "bottom";

export interface TextNode {
  readonly kind: "text";
  readonly x: number;
  readonly y: number;
  readonly text: SceneText;
  /** Font size in px. */
  readonly size: number;
  readonly anchor: TextAnchor;
  readonly baseline: TextBaseline;
  readonly weight: "normal" | "bold";
  /** Tabular (monospaced) digits so columns of numbers align. */
  readonly tabular: boolean;
  readonly fill: Colour;
  /** Rotation in degrees about (x, y), e.g. -90 for a vertical axis title. */
  readonly rotation?: number;
  /** The widest the text may be drawn, in px: a longer translation is set smaller to fit (never clipped). */
  readonly maxWidth?: number;
}

/** Probability levels of a deviation map: the seeds' 0.005, 0.01, 0.02, 0.05, and "normal" above them. */
export type ProbabilityLevel = 0.005 | 0.01 | 0.02 | 0.05 | "normal";

/** A probability symbol centred on (x, y) in a square of side `size`; `symbolShapes` expands it into primitives. */
export interface SymbolNode {
  readonly kind: "symbol";
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly level: ProbabilityLevel;
  readonly fill: Colour;
}

/** A group translates (then scales) its children. */
export interface GroupNode {
  readonly kind: "group";
  readonly x: number;
  readonly y: number;
  readonly scale?: number;
  /** What the group shows, for tests and accessibility (e.g. "legend", "axes", "points"). */
  readonly role?: string;
  readonly children: readonly SceneNode[];
}

export type SceneNode = RectNode | CircleNode | LineNode | PolylineNode | TextNode | SymbolNode | GroupNode;

export interface Scene {
  readonly width: number;
  readonly height: number;
  /** Which plot this is (e.g. "octopus.thresholds"), for renderers, tests and file names. */
  readonly plot: string;
  readonly title?: Message;
  readonly background?: Colour;
  readonly nodes: readonly SceneNode[];
}

/** Where a scene is drawn: the seeds size some marks differently on paper (gaze bars). */
export type Medium = "screen" | "print";

export interface TextStyle {
  readonly size?: number;
  readonly anchor?: TextAnchor;
  readonly baseline?: TextBaseline;
  readonly weight?: "normal" | "bold";
  readonly tabular?: boolean;
  readonly fill?: Colour;
  readonly rotation?: number;
  readonly maxWidth?: number;
}

/** A text node with the house defaults (12 px, centred, ink colour). */
export function text(x: number, y: number, content: SceneText, style: TextStyle = {}): TextNode {
  return {
    kind: "text",
    x,
    y,
    text: content,
    size: style.size ?? 12,
    anchor: style.anchor ?? "middle",
    baseline: style.baseline ?? "middle",
    weight: style.weight ?? "normal",
    tabular: style.tabular ?? false,
    fill: style.fill ?? "plot-ink",
    ...(style.rotation !== undefined ? { rotation: style.rotation } : {}),
    ...(style.maxWidth !== undefined ? { maxWidth: style.maxWidth } : {}),
  };
}

export const message = (id: string, defaultText: string, values?: Record<string, string | number | Message>): Message =>
  values ? { id, default: defaultText, values } : { id, default: defaultText };

/** Every node of a scene, groups flattened depth first (children keep their local coordinates). */
export function walk(nodes: readonly SceneNode[]): SceneNode[] {
  return nodes.flatMap((n) => (n.kind === "group" ? [n, ...walk(n.children)] : [n]));
}
