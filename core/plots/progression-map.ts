// The progression analysis map (issue 20): per location, the TD slope in dB/year from pointwise linear regression
// (bold in the notice colour where it falls with p < 1 %, PoPLR's view), and the GPA-style event of the last result as
// a triangle: open = deteriorated beyond the 5 % test-retest limit on the last result, half = on the last two,
// filled = on the last three (Humphrey GPA's symbols). The analysis itself is core/analytics/progression/eye-progression.ts.

import { checkLength, fieldFrame, fieldScene, type FieldBox } from "./field.ts";
import { message, text, type Scene, type SceneNode } from "./scene.ts";

export interface ProgressionMapInput extends FieldBox {
  /** TD slope per location in dB/year (null at blind spots), and its one-sided p-value. */
  readonly slopes: ReadonlyArray<number | null> | null;
  readonly slopeP: ReadonlyArray<number | null> | null;
  /** Location indices deteriorated on the last result, on the last two, on the last three. */
  readonly once: readonly number[];
  readonly twice: readonly number[];
  readonly thrice: readonly number[];
}

export const SIGNIFICANT_SLOPE_P = 0.01;

export type EventMark = "once" | "twice" | "thrice";

/** A GPA triangle of `size` px centred at (x, y). */
export function eventTriangle(x: number, y: number, size: number, mark: EventMark): SceneNode[] {
  const h = size * 0.87;
  const outline = [x, y - h / 2, x + size / 2, y + h / 2, x - size / 2, y + h / 2];
  if (mark === "once") return [{ kind: "polyline", points: outline, closed: true, stroke: "plot-notice", strokeWidth: 1.2 }];
  if (mark === "thrice")
    return [{ kind: "polyline", points: outline, closed: true, stroke: "plot-notice", strokeWidth: 1.2, fill: "plot-notice" }];
  // Half: the left half filled.
  return [
    { kind: "polyline", points: [x, y - h / 2, x, y + h / 2, x - size / 2, y + h / 2], closed: true, fill: "plot-notice", strokeWidth: 0 },
    { kind: "polyline", points: outline, closed: true, stroke: "plot-notice", strokeWidth: 1.2 },
  ];
}

export function progressionMapScene(input: ProgressionMapInput): Scene {
  const frame = fieldFrame(input, 1.8); // "-1.2" at 0.9 of the size is 1.76 em
  if (input.slopes) checkLength("slopes", input.slopes, frame.geometry);
  const blind = new Set(frame.geometry.blindSpotIndices);
  const mark = (i: number): EventMark | null =>
    input.thrice.includes(i) ? "thrice" : input.twice.includes(i) ? "twice" : input.once.includes(i) ? "once" : null;
  const marks: SceneNode[] = frame.geometry.points.flatMap((_, i) => {
    if (blind.has(i)) return [];
    const { x, y } = frame.at[i]!;
    const size = frame.sizeAt[i]!;
    const slope = input.slopes?.[i] ?? null;
    const significant = slope !== null && slope < 0 && (input.slopeP?.[i] ?? 1) < SIGNIFICANT_SLOPE_P;
    const out: SceneNode[] = [];
    const m = mark(i);
    if (slope !== null)
      out.push(
        text(x, m ? y + size * 0.45 : y, slope.toFixed(1), {
          size: size * 0.9,
          tabular: true,
          ...(significant ? { weight: "bold" as const, fill: "plot-notice" as const } : { fill: "plot-ink" as const }),
        }),
      );
    if (m) out.push(...eventTriangle(x, slope === null ? y : y - size * 0.55, size * 0.9, m));
    if (slope === null && !m) out.push({ kind: "circle", cx: x, cy: y, r: 1.2, fill: "plot-ink-muted" });
    return out;
  });
  return fieldScene("progression.map", message("plots.progressionMap.title", "TD slope (dB/year) and events"), input, frame, marks);
}
