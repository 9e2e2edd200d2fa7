// Composing scenes on a page: the print layout and the CLI report place the same scenes the screen draws.
// Accounts seed §9: "Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze."

import type { GroupNode, Scene, SceneNode } from "./scene.ts";

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const printMarginMm = 5;
/** Shares of the printable height: header, plots, gaze. */
export const printShares = { header: 0.2, plots: 0.73, gaze: 0.07 } as const;

/** Points (1/72 inch, the unit of PDF and of print CSS pt) per millimetre. */
export const pointsPerMm = 72 / 25.4;

/**
 * The three regions of a printed result page: "margin 5 mm; layout 20% header, 73% plot, 7% gaze", in the unit of
 * `pageWidth`/`pageHeight` (`unitsPerMm` converts the margin; default points).
 */
export function printRegions(pageWidth: number, pageHeight: number, unitsPerMm = pointsPerMm): { header: Box; plots: Box; gaze: Box } {
  const m = printMarginMm * unitsPerMm;
  const width = pageWidth - 2 * m;
  const height = pageHeight - 2 * m;
  const header = { x: m, y: m, width, height: height * printShares.header };
  const plots = { x: m, y: header.y + header.height, width, height: height * printShares.plots };
  const gaze = { x: m, y: plots.y + plots.height, width, height: height * printShares.gaze };
  return { header, plots, gaze };
}

/** A scene as a group scaled to fit `box` (aspect kept, centred), with its background. */
export function placeScene(scene: Scene, box: Box): GroupNode {
  const scale = Math.min(box.width / scene.width, box.height / scene.height);
  const children: SceneNode[] = scene.background
    ? [{ kind: "rect", x: 0, y: 0, width: scene.width, height: scene.height, fill: scene.background }, ...scene.nodes]
    : [...scene.nodes];
  return {
    kind: "group",
    x: box.x + (box.width - scene.width * scale) / 2,
    y: box.y + (box.height - scene.height * scale) / 2,
    scale,
    role: scene.plot,
    children,
  };
}

/** Splits a box into `columns` x `rows` equal cells, row by row (e.g. the plot grid of a print page). */
export function gridCells(box: Box, columns: number, rows: number, gap = 0): Box[] {
  const w = (box.width - gap * (columns - 1)) / columns;
  const h = (box.height - gap * (rows - 1)) / rows;
  const out: Box[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) out.push({ x: box.x + c * (w + gap), y: box.y + r * (h + gap), width: w, height: h });
  return out;
}

/** A page scene holding other scenes at their boxes. */
export function pageScene(
  plot: string,
  width: number,
  height: number,
  placed: ReadonlyArray<{ scene: Scene; box: Box }>,
  extra: readonly SceneNode[] = [],
): Scene {
  return {
    plot,
    width,
    height,
    background: "plot-background",
    nodes: [...placed.map(({ scene, box }) => placeScene(scene, box)), ...extra],
  };
}
