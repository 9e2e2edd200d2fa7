import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { patternLabel, Pattern, type Eye } from "../../../core/model/enums.ts";
import { estermanScene } from "../../../core/plots/esterman.ts";
import { gazeScene } from "../../../core/plots/gaze.ts";
import { grayscaleScene } from "../../../core/plots/grayscale.ts";
import { humphreyDeviationSymbolsScene, humphreyDeviationValuesScene, humphreyThresholdsScene } from "../../../core/plots/humphrey.ts";
import { isScreening, screeningScene } from "../../../core/plots/screening.ts";
import { octopusLossScene, octopusThresholdsScene } from "../../../core/plots/octopus.ts";
import { text, type Scene, type SceneNode } from "../../../core/plots/scene.ts";
import { toProbabilityLevel } from "../../../core/plots/symbols.ts";
import { hhmmss } from "../csv.ts";
import { recordFileName, takenAtParts, type ExportRecord } from "../record.ts";
import type { ExportWriter } from "../writer.ts";
import { pdfDocument } from "./pdf-document.ts";
import { placeScene } from "./scene-to-pdf.ts";

// One A4 page per result, laid out like the web print (accounts seed §9: "Print: margin 5 mm; layout 20% header,
// 73% plot, 7% gaze"): a header with the patient, the test and its indices; the field plots from core/plots (the same
// scenes the web draws); the gaze bars ("bar width ... 1 in print"). Scenes are built at their cell size, so nothing is
// scaled and text keeps its point sizes.

export const A4 = { width: 595.28, height: 841.89 } as const;
const MM = 72 / 25.4;
export const PRINT_MARGIN = 5 * MM;
export const PRINT_LAYOUT = { header: 0.2, plot: 0.73, gaze: 0.07 } as const;

const eyeNames: Record<Eye, string> = { 0: "right eye (OD)", 1: "left eye (OS)", 2: "both eyes", 3: "binocular (OU)" };
const strategyNames: Record<number, string> = { 0: "undefined", 1: "Normal", 2: "SORS", 3: "Dynamic", 4: "Supra-threshold", 5: "1LT", 999: "SORS screening" };
const sexNames: Record<number, string> = { 0: "female", 1: "male", 2: "other" };

const f2 = (v: number | null | undefined, unit = "") => (v === null || v === undefined || !Number.isFinite(v) ? "–" : `${v.toFixed(2)}${unit}`);
const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)} %`);

/** The header block as a scene (so the page is drawn by one renderer). */
export function headerScene(r: ExportRecord, width: number, height: number): Scene {
  const res = r.result, a = r.analysis(), p = r.patient;
  const { date, time } = takenAtParts(res.takenAt);
  const left: SceneNode[] = [
    text(0, 10, "Isopter perimetry report", { size: 14, anchor: "start", weight: "bold" }),
    text(0, 32, p.name, { size: 12, anchor: "start", weight: "bold" }),
    text(0, 48, `ID ${p.uniqueId}   born ${p.birthdate} (${r.age} y)   ${sexNames[p.gender] ?? ""}`, { size: 9, anchor: "start" }),
    text(0, 64, `${patternLabel[res.pattern]}   ${strategyNames[res.strategy] ?? ""}   ${eyeNames[res.eye]}`, { size: 9, anchor: "start" }),
    text(0, 78, `${date} ${time} UTC   duration ${hhmmss(res.examinationTimeInSeconds).replace(/^00:/, "")}   ${res.presentations} presentations`, { size: 9, anchor: "start" }),
    text(0, 92, `Device ${res.deviceAlias ?? r.test.deviceSn ?? "–"}   background ${res.background} asb`, { size: 9, anchor: "start", fill: "plot-ink-muted" }),
    text(0, 104, `Normative database: ${a.normative?.database ?? "none"}`, { size: 9, anchor: "start", fill: "plot-ink-muted" }),
  ];
  const rel = a.reliability;
  const ct = res.catchTrials;
  const rows: Array<[string, string]> = [
    ["MD", f2(a.display.md, " dB")],
    ["PSD", f2(a.display.psd, " dB")],
    ["VFI", a.display.vfi === null ? "–" : `${a.display.vfi} %`],
    ["Mean sensitivity", f2(a.display.meanSensitivity, " dB")],
    // Without normals of our own, the device's stored Octopus indices are what there is.
    ["Mean defect", f2(a.display.meanDefect ?? res.meanDefect, " dB")],
    ["sLV", f2(a.display.slv ?? res.squareRootLossVariance, " dB")],
    ["False positives", `${ct.falsePositive.errors}/${ct.falsePositive.presentations} (${pct(rel.falsePositiveRate)})`],
    ["False negatives", `${ct.falseNegative.errors}/${ct.falseNegative.presentations} (${pct(rel.falseNegativeRate)})`],
    ["Fixation losses", `${ct.blindSpot.errors}/${ct.blindSpot.presentations} (${pct(rel.fixationLossRate)})`],
  ];
  if (a.normative?.ght) rows.push(["GHT", a.normative.ght.outcome]);
  if (a.estermanScore !== null) rows.push(["Esterman score", `${a.estermanScore} %`]);
  const colX = width * 0.58;
  const right: SceneNode[] = rows.flatMap(([k, v], i) => [
    text(colX, 8 + i * 12, k, { size: 9, anchor: "start", fill: "plot-ink-muted" }),
    text(width, 8 + i * 12, v, { size: 9, anchor: "end", tabular: true }),
  ]);
  const reliable = rel.reliable && r.test.reliable;
  right.push(
    text(colX, 8 + rows.length * 12 + 4, reliable ? "Reliable" : `Unreliable${rel.problems.length ? `: ${rel.problems.join(", ")}` : " (marked)"}`, {
      size: 9, anchor: "start", weight: "bold", fill: reliable ? "plot-ink" : "plot-notice",
    }),
  );
  return { plot: "report.header", width, height, nodes: [...left, ...right] };
}

/** The field plots of a result, in reading order, each built for a cell of the given size. */
export function fieldScenes(r: ExportRecord, cellWidth: number, cellHeight: number, fullWidth: number, fullHeight: number): Scene[] {
  const res = r.result, a = r.analysis();
  if (res.pattern === Pattern.Esterman) return [estermanScene({ thresholds: res.thresholds, score: res.estermanScore, width: fullWidth, height: fullHeight })];
  const box = { pattern: res.pattern, eye: res.eye, width: cellWidth, height: cellHeight };
  // Screenings (Supra, 1LT) have levels seen or not, not thresholds: the seen / not-seen plot, as on screen.
  if (isScreening(res.strategy)) return [screeningScene({ ...box, values: res.thresholds, width: fullWidth, height: fullHeight })];
  const scenes: Scene[] = [octopusThresholdsScene({ ...box, thresholds: res.thresholds }), grayscaleScene({ ...box, thresholds: res.thresholds })];
  const nv = a.normative;
  if (nv) {
    scenes.push(
      humphreyThresholdsScene({ ...box, thresholds: res.thresholds }),
      humphreyDeviationValuesScene({ ...box, kind: "total", values: nv.td }),
      humphreyDeviationSymbolsScene({ ...box, kind: "total", levels: nv.tdp.map((p) => (p === null ? null : toProbabilityLevel(p))) }),
      humphreyDeviationSymbolsScene({ ...box, kind: "pattern", levels: nv.pdp.map((p) => (p === null ? null : toProbabilityLevel(p))) }),
    );
  } else {
    scenes.push(humphreyThresholdsScene({ ...box, thresholds: res.thresholds }));
    const defects = a.octopus?.defects ?? (res.defects.length === getPattern(res.pattern).points.length ? res.defects : null);
    if (defects) scenes.push(octopusLossScene({ ...box, defects }));
  }
  return scenes;
}

/** The page's content stream. */
export function reportPage(r: ExportRecord): string {
  const W = A4.width - 2 * PRINT_MARGIN;
  const H = A4.height - 2 * PRINT_MARGIN;
  const headerH = H * PRINT_LAYOUT.header, plotH = H * PRINT_LAYOUT.plot, gazeH = H * PRINT_LAYOUT.gaze;
  const x0 = PRINT_MARGIN, y0 = PRINT_MARGIN;
  const parts: string[] = [placeScene(headerScene(r, W, headerH), A4.height, x0, y0)];
  const cols = 2, rows = 3;
  const cellW = W / cols, cellH = plotH / rows;
  fieldScenes(r, cellW, cellH, W, plotH).forEach((scene, i) => {
    const x = scene.width >= W - 1 ? x0 : x0 + (i % cols) * cellW;
    const y = y0 + headerH + Math.floor(i / cols) * cellH;
    parts.push(placeScene(scene, A4.height, x, y));
  });
  const gaze = r.result.gazeTracking;
  if (gaze && gaze.meanDistance.length > 0)
    parts.push(placeScene(gazeScene({ samples: gaze.meanDistance, fixationThreshold: gaze.fixationThreshold, medium: "print", width: W, height: gazeH }), A4.height, x0, y0 + headerH + plotH));
  return parts.join("\n");
}

export function reportPdf(r: ExportRecord, creationDate?: Date): Buffer {
  const { date } = takenAtParts(r.result.takenAt);
  return pdfDocument([{ width: A4.width, height: A4.height, content: reportPage(r) }], {
    title: `Perimetry ${patternLabel[r.result.pattern]} ${eyeNames[r.result.eye]} ${date}: ${r.patient.name}`,
    subject: `Isopter result ${r.test.id}`,
    ...(creationDate ? { creationDate } : {}),
  });
}

export function pdfWriter(dir: string): ExportWriter {
  return {
    write: (r) => writeFile(join(dir, recordFileName(r, "pdf")), reportPdf(r)),
    end: async () => undefined,
  };
}
