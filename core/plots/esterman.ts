// The Esterman plot: the 120 binocular locations, seen or not seen, with the Esterman score.
// analytics.md: "Esterman: binocular, 120 points, single level 10 dB; score = round(100 * seen / 120)"; accounts seed §9:
// "Esterman score: rounded percentage of seen points (threshold above 0)".

import { estermanScore } from "../analytics/esterman.ts";
import { Eye, Pattern } from "../model/enums.ts";
import { message, type Scene } from "./scene.ts";
import { seenAt, seenFieldScene } from "./screening.ts";

/** "Seen" means a threshold above 0 (as core/analytics/esterman.ts counts it); null = not presented. */
export const estermanSeen = seenAt;

export interface EstermanInput {
  /** Per Esterman location (120): the single-level result in dB, seen when above 0; null = not presented. */
  readonly thresholds: ReadonlyArray<number | null>;
  /** The stored score; computed from the thresholds when absent. */
  readonly score?: number | null;
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

/** Seen: a small open circle; not seen: a filled square, the Esterman printout convention (screening.ts). */
export function estermanScene(input: EstermanInput): Scene {
  const box = { pattern: Pattern.Esterman, eye: Eye.Binocular, width: input.width, height: input.height, showTitle: input.showTitle };
  const score = input.score ?? estermanScore(input.thresholds);
  return seenFieldScene(
    "esterman",
    message("plots.esterman.title", "Esterman binocular"),
    box,
    input.thresholds,
    message("plots.esterman.score", "Esterman score: {score} %", { score }),
  );
}
