// Legends of the field plots (accounts seed §9): the threshold colour bands, the total-deviation legend
// ("below 5%, 2%, 1%, 0.5%") and the value legend ("tops out at 47 dB").

import { greyBands, thresholdBands, valueLegendMax } from "./bands.ts";
import { message, text, type Scene, type SceneNode } from "./scene.ts";

const rowHeight = 18;
const swatch = 12;
const pad = 6;

const legendScene = (plot: string, title: ReturnType<typeof message>, width: number, rows: SceneNode[][]): Scene => ({
  plot,
  title,
  width,
  height: pad * 2 + rowHeight * (rows.length + 1),
  background: "plot-background",
  nodes: [
    text(pad, pad + rowHeight / 2, title, { size: 11, weight: "bold", anchor: "start" }),
    ...rows.map((children, i): SceneNode => ({ kind: "group", x: pad, y: pad + rowHeight * (i + 1), role: "legend-row", children })),
  ],
});

/** The nine threshold colour bands, best (24-40 dB) first, as used by octopusThresholdsScene. */
export function thresholdColourLegend(width = 120): Scene {
  return legendScene(
    "legend.thresholdBands",
    message("plots.legend.thresholdBands", "Threshold (dB)"),
    width,
    thresholdBands.map((b) => [
      {
        kind: "rect",
        x: 0,
        y: (rowHeight - swatch) / 2,
        width: swatch,
        height: swatch,
        fill: b.colour,
        stroke: "plot-frame",
        strokeWidth: 0.5,
      },
      text(swatch + 6, rowHeight / 2, b.label, { size: 11, anchor: "start", tabular: true }),
    ]),
  );
}

/** The seeds' total-deviation legend: "below 5%, 2%, 1%, 0.5%", each with its probability symbol. */
export const totalDeviationLegendLevels = [0.05, 0.02, 0.01, 0.005] as const;

export function totalDeviationLegend(width = 120): Scene {
  return legendScene(
    "legend.totalDeviation",
    message("plots.legend.probability", "Probability"),
    width,
    totalDeviationLegendLevels.map((level) => [
      { kind: "symbol", x: swatch / 2, y: rowHeight / 2, size: swatch, level, fill: "plot-ink" },
      text(swatch + 6, rowHeight / 2, message("plots.legend.below", "< {percent} %", { percent: level * 100 }), {
        size: 11,
        anchor: "start",
        tabular: true,
      }),
    ]),
  );
}

/** A vertical dB scale from 0 to 47 dB shaded with the grey bands (the greyscale's legend). */
export function valueLegend(width = 90, height = 220): Scene {
  const top = pad + rowHeight + 4;
  const bottom = height - pad - 6;
  const barX = pad;
  const barW = 16;
  const y = (db: number) => bottom - ((bottom - top) * db) / valueLegendMax;
  const nodes: SceneNode[] = [
    text(pad, pad + rowHeight / 2, message("plots.legend.value", "dB"), { size: 11, weight: "bold", anchor: "start" }),
  ];
  // Band k covers [min, max + 1) on the scale; band 0 (no response) is the sliver below 1 dB; the top band runs to 47.
  greyBands.forEach((b, k) => {
    const lo = k === 0 ? 0 : b.min;
    const hi = k === greyBands.length - 1 ? valueLegendMax : b.max + 1;
    nodes.push({ kind: "rect", x: barX, y: y(hi), width: barW, height: y(lo) - y(hi), fill: b.colour });
  });
  nodes.push({
    kind: "rect",
    x: barX,
    y: y(valueLegendMax),
    width: barW,
    height: y(0) - y(valueLegendMax),
    stroke: "plot-frame",
    strokeWidth: 0.75,
  });
  for (const v of [0, 10, 20, 30, 40, valueLegendMax]) {
    nodes.push(
      { kind: "line", x1: barX + barW, y1: y(v), x2: barX + barW + 4, y2: y(v), stroke: "plot-axis", strokeWidth: 0.75 },
      text(barX + barW + 7, y(v), String(v), { size: 10, anchor: "start", tabular: true }),
    );
  }
  return { plot: "legend.value", title: message("plots.legend.value", "dB"), width, height, background: "plot-background", nodes };
}
