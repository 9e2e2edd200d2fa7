// Screening results (supra-threshold, one level): each location seen or not seen at the level shown there. Their
// per-location values are the level when seen and 0 when not (simulator/perimetry: "screening: the level when seen, 0
// when missed"), not thresholds: the threshold plots and the deviation maps would read a normal screening as a field of
// defects, so a screening result is drawn as this plot instead. Esterman (esterman.ts) is the binocular one of them.

import { isScreening, screeningStrategies } from "../analytics/seen.ts";
import type { Eye, Pattern } from "../model/enums.ts";
import { checkLength, fieldFrame, fieldScene, type FieldBox } from "./field.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";

export { isScreening, screeningStrategies };

/** "Seen" means a value above 0 (as core/analytics/esterman.ts counts it); null = not presented. */
export function seenAt(values: ReadonlyArray<number | null>): Array<boolean | null> {
  return values.map((t) => (t === null ? null : t > 0));
}

/** Rounded percentage of the presented locations that were seen (the Esterman score's rule for any pattern). */
export function seenPercent(seen: ReadonlyArray<boolean | null>): number {
  const presented = seen.filter((s) => s !== null).length;
  return presented === 0 ? 0 : Math.round((100 * seen.filter((s) => s === true).length) / presented);
}

/**
 * The seen / not-seen field: seen a small open circle, not seen a filled square (the Esterman printout convention),
 * with a two-line summary at the top left and the symbol legend at the top right.
 */
export function seenFieldScene(plot: string, title: Message, box: FieldBox, values: ReadonlyArray<number | null>, summary: Message): Scene {
  const frame = fieldFrame(box);
  checkLength(`${plot} values`, values, frame.geometry);
  const seen = seenAt(values);
  const r = Math.max(2, Math.min(frame.cell * 0.28, 5));
  const marks: SceneNode[] = seen.flatMap((s, i): SceneNode[] => {
    const p = frame.at[i]!;
    if (s === null) return [];
    return s
      ? [{ kind: "circle", cx: p.x, cy: p.y, r, stroke: "esterman-seen", strokeWidth: 1 }]
      : [{ kind: "rect", x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r, fill: "esterman-missed" }];
  });
  const seenCount = seen.filter((s) => s === true).length;
  const presented = seen.filter((s) => s !== null).length;
  const top = box.showTitle === false ? 4 : 24;
  const legend: SceneNode = {
    kind: "group",
    x: 6,
    y: top,
    role: "legend",
    children: [
      text(0, 6, summary, { size: 11, anchor: "start", weight: "bold", tabular: true }),
      text(0, 22, message("plots.esterman.count", "{seen} of {total} seen", { seen: seenCount, total: presented }), {
        size: 10,
        anchor: "start",
        fill: "plot-ink-muted",
        tabular: true,
      }),
      { kind: "circle", cx: box.width - 84, cy: 6, r: 3.5, stroke: "esterman-seen", strokeWidth: 1 },
      text(box.width - 76, 6, message("plots.esterman.seen", "seen"), { size: 10, anchor: "start" }),
      { kind: "rect", x: box.width - 87.5, y: 18.5, width: 7, height: 7, fill: "esterman-missed" },
      text(box.width - 76, 22, message("plots.esterman.missed", "not seen"), { size: 10, anchor: "start" }),
    ],
  };
  return fieldScene(plot, title, box, frame, marks, [legend]);
}

export interface ScreeningInput {
  readonly pattern: Pattern;
  readonly eye: Eye;
  /** Per location: the level shown in dB when seen, 0 when not seen; null = not presented. */
  readonly values: ReadonlyArray<number | null>;
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

/** A monocular screening result (Supra, 1LT on C40 or any threshold pattern), seen and not seen with the share seen. */
export function screeningScene(input: ScreeningInput): Scene {
  const box = { pattern: input.pattern, eye: input.eye, width: input.width, height: input.height, showTitle: input.showTitle };
  const percent = seenPercent(seenAt(input.values));
  return seenFieldScene(
    "screening",
    message("plots.screening.title", "Screening: seen and not seen"),
    box,
    input.values,
    message("plots.screening.seen", "Seen: {percent} %", { percent }),
  );
}
