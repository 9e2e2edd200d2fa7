// The Amsler grid result: the 20 x 20 grid (5 mm squares on a 10 cm card) with its fixation dot and the answer.
// Amsler answers (accounts seed §3): healthy, missing, not sure, wavy; healthy reads 'Normal', the rest 'Abnormal'
// plus the kind.

import type { AmslerAnswer } from "../model/enums.ts";
import { titleNodes } from "./field.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";

export const amslerKinds: Record<Exclude<AmslerAnswer, "healthy">, Message> = {
  wavy: message("plots.amsler.kind.wavy", "wavy lines"),
  missing: message("plots.amsler.kind.missing", "missing areas"),
  "not-sure": message("plots.amsler.kind.notSure", "not sure"),
};

/** 'Normal' for healthy, otherwise 'Abnormal' plus the kind. */
export function amslerVerdict(answer: AmslerAnswer): { readonly normal: boolean; readonly text: Message } {
  if (answer === "healthy") return { normal: true, text: message("plots.amsler.normal", "Normal") };
  const kind = amslerKinds[answer];
  return { normal: false, text: message("plots.amsler.abnormal", "Abnormal: {kind}", { kind }) };
}

export const amslerSquares = 20;

export interface AmslerInput {
  readonly answer: AmslerAnswer;
  readonly width: number;
  readonly height: number;
  readonly showTitle?: boolean;
}

export function amslerScene(input: AmslerInput): Scene {
  const title = message("plots.amsler.title", "Amsler grid");
  const verdict = amslerVerdict(input.answer);
  const top = input.showTitle === false ? 6 : 26;
  const answerHeight = 26;
  const side = Math.min(input.width - 20, input.height - top - answerHeight - 8);
  const left = (input.width - side) / 2;
  const cell = side / amslerSquares;
  const grid: SceneNode[] = [
    { kind: "rect", x: left, y: top, width: side, height: side, fill: "plot-background", stroke: "amsler-grid", strokeWidth: 1.25 },
  ];
  for (let i = 1; i < amslerSquares; i++) {
    const major = i === amslerSquares / 2;
    const w = major ? 1 : 0.5;
    grid.push(
      { kind: "line", x1: left + i * cell, y1: top, x2: left + i * cell, y2: top + side, stroke: "amsler-grid", strokeWidth: w },
      { kind: "line", x1: left, y1: top + i * cell, x2: left + side, y2: top + i * cell, stroke: "amsler-grid", strokeWidth: w },
    );
  }
  grid.push({ kind: "circle", cx: left + side / 2, cy: top + side / 2, r: Math.max(2, cell * 0.3), fill: "amsler-grid" });
  const answer = text(input.width / 2, top + side + answerHeight / 2 + 4, verdict.text, {
    size: 14,
    weight: "bold",
    fill: verdict.normal ? "amsler-normal" : "amsler-abnormal",
  });
  return {
    plot: "amsler",
    title,
    width: input.width,
    height: input.height,
    background: "plot-background",
    nodes: [...titleNodes(title, input.width, input.showTitle), { kind: "group", x: 0, y: 0, role: "grid", children: grid }, answer],
  };
}
