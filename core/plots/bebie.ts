// The Bebie curve (Octopus cumulative defect curve): the defects sorted from the best location to the worst, drawn
// against rank with the normal band; defects grow downward, so a diffuse loss sinks the whole curve and a local loss
// bends its right end down.

import { bebieCurve } from "../analytics/octopus.ts";
import { chartArea, valueAxis, xAxisNodes, yAxisNodes, yOf } from "./chart.ts";
import { titleNodes } from "./field.ts";
import { message, type Scene, type SceneNode } from "./scene.ts";
import { evenTicks, tickCount } from "./axes.ts";

export interface BebieInput {
  /** Defect per location (normal - measured, dB); nulls and blind spots are left out by the caller or here as null. */
  readonly defects: ReadonlyArray<number | null>;
  /** The normal band by rank (e.g. 5th and 95th percentiles of normals' sorted defects), each as long as it likes:
   * it is stretched over the same rank axis. Omitted: no band is drawn. */
  readonly normalBand?: { readonly lower: readonly number[]; readonly upper: readonly number[] };
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

/** The cumulative defect curve (core/analytics): defects sorted ascending, rank 1 = the best location. */
export { bebieCurve };

export function bebieScene(input: BebieInput): Scene {
  const curve = bebieCurve(input.defects);
  const title = message("plots.bebie.title", "Cumulative defect curve (Bebie)");
  const area = chartArea(input.width, input.height, { top: input.showTitle === false ? 10 : 30 });
  const band = input.normalBand;
  const all = [...curve, ...(band ? [...band.lower, ...band.upper] : [])];
  const axis = valueAxis(Math.min(-5, ...all), Math.max(15, ...all), area, true);
  const y = yOf(axis, area);
  const n = Math.max(2, curve.length);
  const xAt = (fraction: number) => area.left + fraction * (area.right - area.left);
  const xOfRank = (rank: number) => xAt((rank - 1) / (n - 1));
  const nodes: SceneNode[] = [
    ...titleNodes(title, input.width, input.showTitle),
    ...yAxisNodes(axis, area, message("plots.bebie.defect", "Defect (dB)")),
  ];
  if (band && band.lower.length > 1 && band.upper.length > 1) {
    const along = (values: readonly number[]) => values.flatMap((v, i) => [xAt(i / (values.length - 1)), y(v)]);
    const lower = along(band.lower);
    const upper = along(band.upper);
    const back: number[] = [];
    for (let i = upper.length - 2; i >= 0; i -= 2) back.push(upper[i]!, upper[i + 1]!);
    nodes.push({
      kind: "group",
      x: 0,
      y: 0,
      role: "normal-band",
      children: [
        {
          kind: "polyline",
          points: [...lower, ...back],
          closed: true,
          fill: "plot-normal-band",
          stroke: "plot-normal-band-edge",
          strokeWidth: 0.5,
        },
      ],
    });
  }
  nodes.push({ kind: "line", x1: area.left, y1: y(0), x2: area.right, y2: y(0), stroke: "plot-axis", strokeWidth: 0.75 });
  if (curve.length > 0)
    nodes.push({
      kind: "group",
      x: 0,
      y: 0,
      role: "curve",
      children: [{ kind: "polyline", points: curve.flatMap((d, i) => [xOfRank(i + 1), y(d)]), stroke: "plot-series", strokeWidth: 1.75 }],
    });
  const ranks = evenTicks(1, n, Math.min(n, tickCount(area.right - area.left, "x"))).map(Math.round);
  nodes.push(
    ...xAxisNodes(
      ranks.map((r) => ({ x: xOfRank(r), label: String(r) })),
      area,
      message("plots.bebie.rank", "Rank"),
      input.height,
    ),
  );
  return { plot: "bebie", title, width: input.width, height: input.height, background: "plot-background", nodes };
}
