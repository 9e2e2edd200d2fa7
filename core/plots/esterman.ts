// The Esterman plot: the 120 binocular locations, seen or not seen, with the Esterman score.
// analytics.md: "Esterman: binocular, 120 points, single level 10 dB; score = round(100 * seen / 120)"; accounts seed §9:
// "Esterman score: rounded percentage of seen points (threshold above 0)".

import { estermanScore } from "../analytics/esterman.ts";
import { Eye, Pattern } from "../model/enums.ts";
import { checkLength, fieldFrame, fieldScene } from "./field.ts";
import { message, text, type Scene, type SceneNode } from "./scene.ts";

/** "Seen" means a threshold above 0 (as core/analytics/esterman.ts counts it); null = not presented. */
export function estermanSeen(thresholds: ReadonlyArray<number | null>): Array<boolean | null> {
  return thresholds.map((t) => (t === null ? null : t > 0));
}

export interface EstermanInput {
  /** Per Esterman location (120): the single-level result in dB, seen when above 0; null = not presented. */
  readonly thresholds: ReadonlyArray<number | null>;
  /** The stored score; computed from the thresholds when absent. */
  readonly score?: number | null;
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

/** Seen: a small open circle; not seen: a filled square, the Esterman printout convention. */
export function estermanScene(input: EstermanInput): Scene {
  const box = { pattern: Pattern.Esterman, eye: Eye.Binocular, width: input.width, height: input.height, showTitle: input.showTitle };
  const frame = fieldFrame(box);
  checkLength("Esterman thresholds", input.thresholds, frame.geometry);
  const seen = estermanSeen(input.thresholds);
  const r = Math.max(2, Math.min(frame.cell * 0.28, 5));
  const marks: SceneNode[] = seen.flatMap((s, i): SceneNode[] => {
    const p = frame.at[i]!;
    if (s === null) return [];
    return s
      ? [{ kind: "circle", cx: p.x, cy: p.y, r, stroke: "esterman-seen", strokeWidth: 1 }]
      : [{ kind: "rect", x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r, fill: "esterman-missed" }];
  });
  const score = input.score ?? estermanScore(input.thresholds);
  const seenCount = seen.filter((s) => s === true).length;
  const top = input.showTitle === false ? 4 : 24;
  const legend: SceneNode = {
    kind: "group",
    x: 6,
    y: top,
    role: "legend",
    children: [
      text(0, 6, message("plots.esterman.score", "Esterman score: {score} %", { score }), { size: 11, anchor: "start", weight: "bold", tabular: true }),
      text(0, 22, message("plots.esterman.count", "{seen} of {total} seen", { seen: seenCount, total: seen.length }), { size: 10, anchor: "start", fill: "plot-ink-muted", tabular: true }),
      { kind: "circle", cx: input.width - 84, cy: 6, r: 3.5, stroke: "esterman-seen", strokeWidth: 1 },
      text(input.width - 76, 6, message("plots.esterman.seen", "seen"), { size: 10, anchor: "start" }),
      { kind: "rect", x: input.width - 87.5, y: 18.5, width: 7, height: 7, fill: "esterman-missed" },
      text(input.width - 76, 22, message("plots.esterman.missed", "not seen"), { size: 10, anchor: "start" }),
    ],
  };
  return fieldScene("esterman", message("plots.esterman.title", "Esterman binocular"), box, frame, marks, [legend]);
}
