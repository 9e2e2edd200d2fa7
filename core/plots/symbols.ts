// Humphrey-style probability symbols: the conventional HFA greyscale of significance, from a single small dot (normal)
// through dotted patterns of increasing density (< 5 %, < 2 %, < 1 %) to a full black square (< 0.5 %).

import type { Colour } from "./palette.ts";
import type { ProbabilityLevel, RectNode, SceneNode, SymbolNode } from "./scene.ts";

/** The seeds' probability map levels, most significant first: "Probability map levels 0.005, 0.01, 0.02, 0.05." */
export const probabilityLevels = [0.005, 0.01, 0.02, 0.05] as const;

/**
 * The level of a probability: the smallest seed level it does not exceed, "normal" above 0.05 or when unknown.
 * (A location is flagged at level p when its deviation is below the p-quantile of normals, i.e. its probability <= p.)
 */
export function toProbabilityLevel(p: number | null | undefined): ProbabilityLevel {
  if (p === null || p === undefined || Number.isNaN(p)) return "normal";
  for (const level of probabilityLevels) if (p <= level) return level;
  return "normal";
}

const square = (x: number, y: number, side: number, fill: Colour): RectNode => ({
  kind: "rect",
  x,
  y,
  width: side,
  height: side,
  fill,
});

/** `count` x `count` dots of side `dot` (fractions of the symbol), evenly spread over the symbol's square. */
const dotGrid = (left: number, top: number, size: number, count: number, dot: number, fill: Colour): RectNode[] => {
  const out: RectNode[] = [];
  const side = dot * size;
  for (let i = 0; i < count; i++)
    for (let j = 0; j < count; j++)
      out.push(square(left + ((i + 0.5) / count) * size - side / 2, top + ((j + 0.5) / count) * size - side / 2, side, fill));
  return out;
};

/** A checkerboard of `count` x `count` cells with the corner cells filled. */
const checkerboard = (left: number, top: number, size: number, count: number, fill: Colour): RectNode[] => {
  const out: RectNode[] = [];
  const side = size / count;
  for (let i = 0; i < count; i++)
    for (let j = 0; j < count; j++) if ((i + j) % 2 === 0) out.push(square(left + i * side, top + j * side, side, fill));
  return out;
};

/** The primitives of a probability symbol; both renderers draw symbols through this so they look the same. */
export function symbolShapes(node: SymbolNode): SceneNode[] {
  const { size, fill } = node;
  const left = node.x - size / 2;
  const top = node.y - size / 2;
  switch (node.level) {
    case "normal":
      return [square(node.x - size * 0.09, node.y - size * 0.09, size * 0.18, fill)];
    case 0.05:
      return dotGrid(left, top, size, 3, 0.13, fill);
    case 0.02:
      return dotGrid(left, top, size, 4, 0.15, fill);
    case 0.01:
      return checkerboard(left, top, size, 5, fill);
    case 0.005:
      return [square(left, top, size, fill)];
  }
}

/** Share of the symbol's square that is inked: grows with significance (used by tests and by the legend order). */
export function symbolInkCoverage(level: ProbabilityLevel): number {
  const shapes = symbolShapes({ kind: "symbol", x: 0, y: 0, size: 1, level, fill: "plot-ink" });
  return shapes.reduce((sum, s) => sum + (s.kind === "rect" ? s.width * s.height : 0), 0);
}
