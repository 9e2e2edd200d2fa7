// The printed result page (accounts seed §9: "Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze"), laid out
// with core/plots' printRegions on an A4 sheet in CSS px (1/96 inch, what the browser prints), from the same
// scenes the screen draws.

import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { thresholdColourLegend, totalDeviationLegend } from "../../core/plots/legends.ts";
import { gridCells, pageScene, printRegions, type Box } from "../../core/plots/page.ts";
import { resultPlots } from "../../core/plots/result-plots.ts";
import type { Scene } from "../../core/plots/scene.ts";
import type { WithResult } from "./result-model.ts";

export const pxPerMm = 96 / 25.4;
export const a4 = { width: 210 * pxPerMm, height: 297 * pxPerMm } as const;
const gap = 6;

export interface PrintPage {
  readonly regions: { header: Box; plots: Box; gaze: Box };
  /** The plot region as one scene, in px of the page; null when the result has no plots. */
  readonly plots: Scene;
  readonly gaze: Scene | null;
}

export function printPage(m: WithResult, analysis: ResultAnalysis, reference: WithResult | null): PrintPage {
  const regions = printRegions(a4.width, a4.height, pxPerMm);
  const columns = 3, rows = 4;
  const area: Box = { x: 0, y: 0, width: regions.plots.width, height: regions.plots.height };
  const cells = gridCells(area, columns, rows, gap);
  const cell = cells[0]!;
  const plots = resultPlots({
    result: m.result,
    analysis,
    reference: reference?.result.thresholds ?? null,
    medium: "print",
    field: { width: cell.width, height: cell.height },
    gaze: { width: regions.gaze.width, height: regions.gaze.height },
  });
  const single = plots.esterman ?? plots.screening;
  const scenes: Scene[] = single
    ? [single]
    : [
        plots.grayscale, plots.octopusThresholds, plots.numerical,
        plots.loss, plots.totalDeviationProbability, plots.patternDeviationProbability,
        plots.humphreyThresholds, plots.totalDeviation, plots.patternDeviation,
        plots.bebie, plots.difference,
      ].filter((s): s is Scene => s !== null);
  const placed: Array<{ scene: Scene; box: Box }> = single
    ? [{ scene: single, box: area }]
    : scenes.slice(0, columns * rows).map((scene, i) => ({ scene, box: cells[i]! }));
  // A free cell holds the legends a reader of the printed colours and symbols needs, side by side at their own size
  // (placeScene would enlarge them to the cell).
  const free = single ? undefined : cells[scenes.length];
  if (free) {
    const legends = [thresholdColourLegend(Math.floor(free.width / 2) - 2), totalDeviationLegend(Math.floor(free.width / 2) - 2)];
    legends.forEach((scene, i) => {
      const width = free.width / 2;
      const box = { x: free.x + i * width, y: free.y, width: Math.min(width, scene.width), height: Math.min(free.height, scene.height) };
      placed.push({ scene, box });
    });
  }
  return {
    regions,
    plots: pageScene("print.plots", area.width, area.height, placed),
    gaze: plots.gaze,
  };
}
