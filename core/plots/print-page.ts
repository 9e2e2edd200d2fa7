// The printed result page as one scene (accounts seed §9: "Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze"):
// the header (print-header.ts: the patient, the test's parameters, its indices with their conventions and p-values,
// its reliability, the normative database and the eye's progression analysis); every plot of
// the result page with the legends of its colours and symbols; the gaze chart. The web's print layout draws it as SVG
// and the CLI writes it as PDF, so paper looks the same whichever printed it. Sizes are in the page's unit (CSS px in
// the browser, points in the PDF): `unitsPerMm` says which.

import { thresholdColourLegend, totalDeviationLegend } from "./legends.ts";
import { gridCells, placeScene, printRegions } from "./page.ts";
import type { IntegratedFieldOutcome } from "../analytics/binocular.ts";
import { printBinocularScenes } from "./print-binocular.ts";
import { printHeaderNodes, type PrintHeaderInput } from "./print-header.ts";
import { resultPlots } from "./result-plots.ts";
import { message, text, type Scene, type SceneNode } from "./scene.ts";

export interface PrintPageInput extends PrintHeaderInput {
  readonly result: PrintHeaderInput["result"] & {
    readonly normativeVersion?: string | null;
    readonly gazeTracking: { readonly meanDistance: readonly number[]; readonly fixationThreshold?: number | null } | null;
  };
  /** Thresholds of the result compared with (difference plot). */
  readonly reference?: readonly number[] | null;
  /** The visit's binocular integrated field (print-binocular.ts): printed in a cell of its own when it applies. */
  readonly binocular?: IntegratedFieldOutcome | null;
  readonly page: { readonly width: number; readonly height: number; readonly unitsPerMm: number };
}

/**
 * The page scene. Groups by role: "print.header", "print.plots" (each plot a group with its plot id as role, the
 * legends as "legend.*"), "print.gaze".
 */
export function printPageScene(input: PrintPageInput): Scene {
  const { page, result, analysis } = input;
  const regions = printRegions(page.width, page.height, page.unitsPerMm);
  const gap = 1.5 * page.unitsPerMm;
  const area = regions.plots;
  // The plots come first (their count decides the grid: fewer plots get larger cells, so the dense centre of a G
  // or 10-2 field keeps its labels apart); each scene is then built at its cell's size.
  const list = (p: ReturnType<typeof resultPlots>) =>
    [
      p.grayscale,
      p.octopusThresholds,
      p.numerical,
      p.loss,
      p.totalDeviationProbability,
      p.patternDeviationProbability,
      p.humphreyThresholds,
      p.totalDeviation,
      p.patternDeviation,
      p.bebie,
      p.difference,
    ].filter((s): s is Scene => s !== null);
  const plotsAt = (width: number, height: number) =>
    resultPlots({
      result,
      analysis,
      reference: input.reference ?? null,
      medium: "print",
      field: { width, height },
      gaze: { width: regions.gaze.width, height: regions.gaze.height },
    });
  const binocular = (cell: { width: number; height: number }) => printBinocularScenes(input.binocular, cell);
  const items = list(plotsAt(100, 100)).length + binocular({ width: 100, height: 100 }).length + 1; // + the legends' cell
  const columns = items <= 6 ? 2 : 3;
  const rows = Math.max(2, Math.ceil(items / columns));
  const cells = gridCells(area, columns, rows, gap);
  const cell = cells[0]!;
  const plots = plotsAt(cell.width, cell.height);
  const single = plots.esterman ?? plots.screening;
  const scenes: Scene[] = single ? [single] : [...list(plots), ...binocular(cell)];
  const placed: SceneNode[] = single
    ? [placeScene(single, area)]
    : scenes.slice(0, columns * rows).map((scene, i) => placeScene(scene, cells[i]!));
  // The legends of the printed colours and symbols (probabilities "< 5 %" ... as on the screen) in the first free
  // cell, at their own size; a screening or Esterman page explains itself in its plot.
  const free = single ? undefined : cells[scenes.length];
  if (free) {
    const half = Math.floor(free.width / 2) - 2;
    [thresholdColourLegend(half), totalDeviationLegend(half)].forEach((legend, i) => {
      const box = {
        x: free.x + i * (free.width / 2),
        y: free.y,
        width: Math.min(free.width / 2, legend.width),
        height: Math.min(free.height, legend.height),
      };
      placed.push(placeScene(legend, box));
    });
  }
  const gaze = plots.gaze
    ? [placeScene(plots.gaze, regions.gaze)]
    : [
        text(
          regions.gaze.x,
          regions.gaze.y + regions.gaze.height / 2,
          message("plots.print.noGaze", "Gaze was not tracked in this test."),
          {
            size: 2.8 * page.unitsPerMm,
            anchor: "start",
            fill: "plot-ink-muted",
          },
        ),
      ];
  return {
    plot: "print.page",
    width: page.width,
    height: page.height,
    background: "plot-background",
    nodes: [
      ...printHeaderNodes(input, regions.header, page.unitsPerMm),
      { kind: "group", x: 0, y: 0, role: "print.plots", children: placed },
      { kind: "group", x: 0, y: 0, role: "print.gaze", children: gaze },
    ],
  };
}
