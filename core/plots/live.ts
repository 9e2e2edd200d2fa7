// The live measurement panel of the technician view: the pattern's locations coloured by their state, the dB value of
// each location tested so far, a legend and a progress bar. Accounts seed §4: "Live-view colour per point: green if
// answered, red if last updated and unanswered, gray otherwise." §2: "a legend of answered, not answered and presented
// stimuli, plus a progress bar; supra-threshold and Esterman title variants exist." §9: "Progress bar shows floor of
// percent, hides fill at 2% or less."

import type { Eye, Pattern } from "../model/enums.ts";
import type { RunningTest, ThresholdPoint } from "../model/running-test.ts";
import { checkLength, fieldFrame, fieldAxes, titleNodes, type FieldBox } from "./field.ts";
import { thresholdLabel } from "./format.ts";
import type { ColourToken } from "./palette.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";

export type LiveState = "answered" | "notAnswered" | "presented";

/** Answered = the patient responded at the location (it has an answer time). */
export function isAnswered(t: ThresholdPoint): boolean {
  return t.answerTime !== null;
}

/** "Green if answered, red if last updated and unanswered, gray otherwise." */
export function liveState(t: ThresholdPoint, lastUpdatedIndex: number | null): LiveState {
  if (isAnswered(t)) return "answered";
  if (t.index === lastUpdatedIndex) return "notAnswered";
  return "presented";
}

export const liveColours: Record<LiveState, ColourToken> = {
  answered: "live-answered",
  notAnswered: "live-unanswered",
  presented: "live-presented",
};

export const liveLegendLabels: Record<LiveState, Message> = {
  answered: message("plots.live.answered", "Answered"),
  notAnswered: message("plots.live.notAnswered", "Not answered"),
  presented: message("plots.live.presented", "Presented"),
};

export type LiveVariant = "threshold" | "supra" | "esterman";

export const liveTitles: Record<LiveVariant, Message> = {
  threshold: message("plots.live.title.threshold", "Live measurement"),
  supra: message("plots.live.title.supra", "Live measurement: supra-threshold"),
  esterman: message("plots.live.title.esterman", "Live measurement: Esterman"),
};

/** "Progress bar shows floor of percent." */
export function progressPercent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((100 * Math.min(done, total)) / total);
}

/** "... hides fill at 2% or less." */
export function progressFillShown(percent: number): boolean {
  return percent > 2;
}

export interface LiveInput extends FieldBox {
  readonly pattern: Pattern;
  readonly eye: Eye;
  readonly variant: LiveVariant;
  /** Thresholds reported so far (latest per index wins). */
  readonly thresholds: readonly ThresholdPoint[];
  readonly lastUpdatedIndex: number | null;
  /** Progress ratio; by default locations reported / locations of the pattern. */
  readonly progress?: { readonly done: number; readonly total: number };
  /** Draw the legend and progress bar rows (default true); false when the page draws them (the technician view's
   * HTML legend and bar): the scene is then the field alone, `height` tall. */
  readonly showLegend?: boolean;
}

export function liveScene(input: LiveInput): Scene {
  const chrome = input.showLegend !== false;
  const legendHeight = chrome ? 22 : 0;
  const barHeight = chrome ? 26 : 0;
  const frame = fieldFrame({ ...input, height: input.height - legendHeight - barHeight });
  const title = liveTitles[input.variant];
  const latest = new Map<number, ThresholdPoint>();
  for (const t of input.thresholds) latest.set(t.index, t);
  const states: Array<ThresholdPoint | undefined> = frame.geometry.points.map((_, i) => latest.get(i));
  checkLength("live locations", states, frame.geometry);
  const marks: SceneNode[] = [];
  states.forEach((t, i) => {
    const p = frame.at[i]!;
    const r = Math.max(3, Math.min(frame.localCell[i]! * 0.45, frame.cell * 0.42));
    if (!t) {
      // Not presented yet: an empty ring, so the pattern's shape is visible from the start.
      marks.push({ kind: "circle", cx: p.x, cy: p.y, r, stroke: "plot-grid", strokeWidth: 1 });
      return;
    }
    marks.push({ kind: "circle", cx: p.x, cy: p.y, r, fill: liveColours[liveState(t, input.lastUpdatedIndex)] });
    // The latest location also gets a ring, so it stands out without telling red from green.
    if (i === input.lastUpdatedIndex) marks.push({ kind: "circle", cx: p.x, cy: p.y, r: r + 2.5, stroke: "plot-ink", strokeWidth: 1.5 });
    if (t.dBValue !== null && r >= 6)
      marks.push(
        text(p.x, p.y, thresholdLabel(t.dBValue), {
          size: Math.min(frame.sizeAt[i]!, r * 1.1),
          tabular: true,
          fill: "plot-ink-inverse",
          weight: "bold",
        }),
      );
  });
  const legendY = input.height - barHeight - legendHeight / 2;
  const legend: SceneNode[] = (["answered", "notAnswered", "presented"] as const).flatMap((state, k): SceneNode[] => {
    const x = 10 + k * ((input.width - 20) / 3);
    return [
      { kind: "circle", cx: x + 5, cy: legendY, r: 5, fill: liveColours[state] },
      text(x + 14, legendY, liveLegendLabels[state], { size: 11, anchor: "start" }),
    ];
  });
  const done = input.progress?.done ?? latest.size;
  const total = input.progress?.total ?? frame.geometry.points.length;
  const percent = progressPercent(done, total);
  const track = { x: 10, y: input.height - barHeight + 6, width: input.width - 70, height: 10 };
  const bar: SceneNode[] = [
    { kind: "rect", ...track, fill: "live-progress-track" },
    ...(progressFillShown(percent)
      ? [{ kind: "rect" as const, ...track, width: (track.width * percent) / 100, fill: "live-progress-fill" as const }]
      : []),
    text(input.width - 10, track.y + track.height / 2, `${percent} %`, { size: 11, anchor: "end", tabular: true, weight: "bold" }),
  ];
  return {
    plot: `live.${input.variant}`,
    title,
    width: input.width,
    height: input.height,
    background: "plot-background",
    nodes: [
      ...titleNodes(title, input.width, input.showTitle),
      fieldAxes(frame),
      { kind: "group", x: 0, y: 0, role: "locations", children: marks },
      ...(chrome
        ? [
            { kind: "group" as const, x: 0, y: 0, role: "legend", children: legend },
            { kind: "group" as const, x: 0, y: 0, role: "progress", children: bar },
          ]
        : []),
    ],
  };
}

/** The live panel of a running test as the model carries it: progress is nTested of nLocations. */
export function runningTestScene(
  running: Pick<RunningTest, "thresholds" | "lastUpdatedIndex" | "nTested" | "nLocations">,
  view: FieldBox & { readonly variant: LiveVariant },
): Scene {
  return liveScene({
    ...view,
    thresholds: running.thresholds,
    lastUpdatedIndex: running.lastUpdatedIndex,
    progress: { done: running.nTested, total: running.nLocations },
  });
}
