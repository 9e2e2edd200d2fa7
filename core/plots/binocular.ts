// The binocular integrated visual field beside the two eyes (core/analytics/binocular.ts: Nelson-Quigg 2000 best
// location, Crabb & Viswanathan 2005): each eye's values as the patient sees them and the integrated field, all three
// in one style: whole dB at the locations, a dark cell below 10 dB and a grey one below 20 dB (the two levels the
// disability score counts), and on the integrated field a small triangle in the colour of the eye that gave the value
// (pointing right: right eye; left: left eye; none: both equal).

import {
  IVF_DENSE_DEFECT_DB,
  IVF_RELATIVE_DEFECT_DB,
  type IntegratedField,
  type IntegratedSource,
  type MonocularField,
} from "../analytics/binocular.ts";
import { Eye } from "../model/enums.ts";
import { checkLength, fieldAxes, fieldFrame, labelBoxes, titleNodes, type FieldBox, type FieldFrame } from "./field.ts";
import { thresholdLabel } from "./format.ts";
import type { ColourToken } from "./palette.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";

/** Room for a value and the eye's triangle beside it, in em of the value's font. */
const labelEm = 2.3;

/** The cell of a sensitivity: a dense defect (< 10 dB), a relative one (< 20 dB), or none. */
export function defectCell(db: number): { readonly fill: ColourToken | null; readonly ink: ColourToken } {
  if (db < IVF_DENSE_DEFECT_DB) return { fill: "grey-band-1", ink: "plot-ink-inverse" };
  if (db < IVF_RELATIVE_DEFECT_DB) return { fill: "grey-band-6", ink: "plot-ink" };
  return { fill: null, ink: "plot-ink" };
}

const eyeColour: Record<Exclude<IntegratedSource, "both">, ColourToken> = { right: "plot-eye-right", left: "plot-eye-left" };

/** A triangle of side `s` pointing right (+1) or left (-1), its tip at (x, y). */
const triangle = (x: number, y: number, s: number, direction: 1 | -1, fill: ColourToken): SceneNode => ({
  kind: "polyline",
  points: [x, y, x - direction * s, y - s * 0.6, x - direction * s, y + s * 0.6],
  closed: true,
  fill,
  // A light rim keeps it visible on a dark cell.
  stroke: "plot-background",
  strokeWidth: 0.5,
});

/** A value at a location: its defect cell (muted and without a cell where it does not count: a blind spot). */
function valueMarks(frame: FieldFrame, i: number, db: number, counts: boolean): SceneNode[] {
  const p = frame.at[i]!;
  const side = frame.localCell[i]! * 0.9;
  const cell = defectCell(db);
  const fill = counts ? cell.fill : null;
  return [
    ...(fill ? [{ kind: "rect" as const, x: p.x - side / 2, y: p.y - side / 2, width: side, height: side, fill }] : []),
    text(p.x, p.y, thresholdLabel(db), { size: frame.sizeAt[i]!, tabular: true, fill: counts ? cell.ink : "plot-ink-muted" }),
  ];
}

export interface BinocularBox {
  /** Each scene's size. */
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

const eyeTitle = (eye: Eye): Message =>
  eye === Eye.Left ? message("plots.binocular.left", "Left eye (dB)") : message("plots.binocular.right", "Right eye (dB)");

/** One eye's values as the patient sees them (a left eye mirrored); its blind spot muted, as the IVF leaves it out. */
export function monocularValuesScene(result: Pick<MonocularField, "eye" | "pattern" | "thresholds">, box: BinocularBox): Scene {
  const fieldBox: FieldBox = { pattern: result.pattern, eye: result.eye, ...box };
  const frame = fieldFrame(fieldBox, labelEm);
  checkLength("thresholds", result.thresholds, frame.geometry);
  const blind = frame.geometry.blindSpotIndices;
  const marks = result.thresholds.flatMap((v, i) => (v === null ? [] : valueMarks(frame, i, v, !blind.includes(i))));
  const title = eyeTitle(result.eye);
  return {
    plot: result.eye === Eye.Left ? "binocular.left" : "binocular.right",
    title,
    width: box.width,
    height: box.height,
    background: "plot-background",
    nodes: [
      ...titleNodes(title, box.width, box.showTitle),
      fieldAxes(frame, labelBoxes(marks)),
      { kind: "group", x: 0, y: 0, role: "locations", children: marks },
    ],
  };
}

export interface IntegratedSceneOptions extends BinocularBox {
  /** The disability score in the legend (the print; the screen says it in the page's text). */
  readonly showScore?: boolean;
}

/** The disability score as the plots and the page say it. */
export const disabilityMessage = (field: IntegratedField): Message =>
  message("plots.binocular.score", "Disability score {score} of {max}", { score: field.disability.score, max: field.disability.max });

/**
 * The legend as rows from `top`, at `x`, `width` wide: the score (when asked), the two defect cells with how many
 * points each has, then the eyes' triangles.
 */
function legendRows(
  field: IntegratedField,
  x0: number,
  top: number,
  width: number,
  size: number,
  score: boolean,
  columns: 1 | 2,
): SceneNode[] {
  const columnWidth = width / columns;
  const sw = size;
  const { dense, relative } = field.disability;
  const label = (x: number, y: number, content: Message, indent = sw + 4, weight: "normal" | "bold" = "normal") =>
    text(x + indent, y, content, { size, anchor: "start", weight, maxWidth: (indent === 0 ? width : columnWidth) - indent - 2 });
  const square = (x: number, y: number, fill: ColourToken): SceneNode => ({
    kind: "rect",
    x,
    y: y - sw / 2,
    width: sw,
    height: sw,
    fill,
    stroke: "plot-frame",
    strokeWidth: 0.5,
  });
  const dB = { dense: IVF_DENSE_DEFECT_DB, relative: IVF_RELATIVE_DEFECT_DB };
  const entries: Array<(x: number, y: number) => SceneNode[]> = [
    (x, y) => [
      square(x, y, "grey-band-1"),
      label(x, y, message("plots.binocular.dense", "< {db} dB ({count})", { db: dB.dense, count: dense })),
    ],
    (x, y) => [
      square(x, y, "grey-band-6"),
      label(
        x,
        y,
        message("plots.binocular.relative", "{from}-{to} dB ({count})", { from: dB.dense, to: dB.relative - 1, count: relative - dense }),
      ),
    ],
    (x, y) => [triangle(x + sw, y, sw, 1, eyeColour.right), label(x, y, message("plots.binocular.fromRight", "from the right eye"))],
    (x, y) => [triangle(x, y, sw, -1, eyeColour.left), label(x, y, message("plots.binocular.fromLeft", "from the left eye"))],
  ];
  const first = score ? 1 : 0;
  const at = (row: number) => top + rowHeight(size) * (row + 0.5);
  return [
    ...(score ? [label(x0, at(0), disabilityMessage(field), 0, "bold")] : []),
    ...entries.flatMap((entry, i) => entry(x0 + (i % columns) * columnWidth, at(first + Math.floor(i / columns)))),
  ];
}

const rowHeight = (size: number) => size * 1.7;
/** Rows of the legend: the score's, then four entries in `columns`. */
const legendRowCount = (score: boolean, columns: 1 | 2) => (score ? 1 : 0) + 4 / columns;

/**
 * The integrated field in visual space with its legend (and, when asked, the disability score): the legend beside the
 * field in a wide box (a print cell), under it otherwise.
 */
export function integratedFieldScene(field: IntegratedField, options: IntegratedSceneOptions): Scene {
  const { width, height } = options;
  const score = options.showScore === true;
  const side = width >= height * 1.35;
  const size = Math.max(8, Math.min(11, (side ? height : width) * 0.045));
  const columns = side ? 1 : 2;
  const legendHeight = rowHeight(size) * legendRowCount(score, columns);
  const legendWidth = side ? Math.min(width - height, width * 0.42) : width - 12;
  const box: FieldBox = {
    pattern: field.pattern,
    eye: Eye.Right,
    width: side ? width - legendWidth : width,
    height: side ? height : height - legendHeight - 4,
    ...(options.showTitle === undefined ? {} : { showTitle: options.showTitle }),
  };
  const frame = fieldFrame(box, labelEm);
  const marks: SceneNode[] = [];
  for (const p of field.points) {
    marks.push(...valueMarks(frame, p.index, p.sensitivity, true));
    if (p.source === "both") continue;
    // Beside the value on the side of the eye that gave it, its tip on the cell's edge: right for the right eye.
    const at = frame.at[p.index]!;
    const s = Math.max(2.5, frame.sizeAt[p.index]! * 0.5);
    const dir = p.source === "right" ? 1 : -1;
    marks.push(triangle(at.x + (dir * frame.localCell[p.index]! * 0.9) / 2, at.y, s, dir, eyeColour[p.source]));
  }
  const title = message("plots.binocular.title", "Integrated field, both eyes (dB)");
  const legend = side
    ? legendRows(field, box.width, (height - legendHeight) / 2, legendWidth, size, score, columns)
    : legendRows(field, 6, height - legendHeight - 2, legendWidth, size, score, columns);
  return {
    plot: "binocular.integrated",
    title,
    width,
    height,
    background: "plot-background",
    nodes: [
      ...titleNodes(title, width, options.showTitle),
      fieldAxes(frame, labelBoxes(marks)),
      { kind: "group", x: 0, y: 0, role: "locations", children: marks },
      { kind: "group", x: 0, y: 0, role: "legend", children: legend },
    ],
  };
}

/** The three plots of a visit: right eye, left eye, integrated field. */
export function binocularScenes(
  right: Pick<MonocularField, "eye" | "pattern" | "thresholds">,
  left: Pick<MonocularField, "eye" | "pattern" | "thresholds">,
  field: IntegratedField,
  options: IntegratedSceneOptions,
): { readonly right: Scene; readonly left: Scene; readonly integrated: Scene } {
  return {
    right: monocularValuesScene(right, options),
    left: monocularValuesScene(left, options),
    integrated: integratedFieldScene(field, options),
  };
}
