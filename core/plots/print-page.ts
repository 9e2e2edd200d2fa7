// The printed result page as one scene (accounts seed §9: "Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze"):
// the header with the patient, the test's parameters, its reliability and its indices with p-values; every plot of
// the result page with the legends of its colours and symbols; the gaze chart. The web's print layout draws it as SVG
// and the CLI writes it as PDF, so paper looks the same whichever printed it. Sizes are in the page's unit (CSS px in
// the browser, points in the PDF): `unitsPerMm` says which.

import type { ResultAnalysis } from "../analytics/result-analysis.ts";
import { isScreeningResult, locationSeen } from "../analytics/seen.ts";
import { significance } from "../analytics/significance.ts";
import type { ClinicTime } from "../model/clinic-time.ts";
import { patternLabel, type Eye, type Pattern, type Sex, type Strategy } from "../model/enums.ts";
import { thresholdColourLegend, totalDeviationLegend } from "./legends.ts";
import { gridCells, placeScene, printRegions, type Box } from "./page.ts";
import { resultPlots } from "./result-plots.ts";
import { message, text, type Message, type Scene, type SceneNode } from "./scene.ts";

export interface PrintPageInput {
  readonly patient: { readonly name: string; readonly uniqueId: string; readonly birthdate: string; readonly gender: Sex };
  /** Completed years on the test day. */
  readonly age: number;
  readonly result: {
    readonly pattern: Pattern;
    readonly eye: Eye;
    readonly strategy: Strategy;
    readonly thresholds: readonly number[];
    readonly normativeVersion?: string | null;
    readonly examinationTimeInSeconds: number;
    readonly presentations: number;
    readonly background: number;
    readonly deviceAlias: string | null;
    readonly meanDefect: number | null;
    readonly squareRootLossVariance: number | null;
    readonly estermanScore: number | null;
    readonly catchTrials: {
      readonly falsePositive: { readonly errors: number; readonly presentations: number };
      readonly falseNegative: { readonly errors: number; readonly presentations: number };
      readonly blindSpot: { readonly errors: number; readonly presentations: number };
    };
    readonly gazeTracking: { readonly meanDistance: readonly number[]; readonly fixationThreshold?: number | null } | null;
  };
  readonly analysis: ResultAnalysis;
  /** The clinician's own flag beside the catch trials (a measurement marked unreliable). */
  readonly markedReliable: boolean;
  /** When the test was taken, on the clinic's clock. */
  readonly taken: ClinicTime;
  /** Thresholds of the result compared with (difference plot). */
  readonly reference?: readonly number[] | null;
  readonly page: { readonly width: number; readonly height: number; readonly unitsPerMm: number };
}

const eyeMessages: Record<number, Message> = {
  0: message("plots.print.eye.right", "right eye (OD)"),
  1: message("plots.print.eye.left", "left eye (OS)"),
  2: message("plots.print.eye.both", "both eyes"),
  3: message("plots.print.eye.binocular", "binocular (OU)"),
};
const strategyMessages: Record<number, Message> = {
  0: message("plots.print.strategy.undefined", "strategy not recorded"),
  1: message("plots.print.strategy.normal", "Normal"),
  2: message("plots.print.strategy.sors", "SORS"),
  3: message("plots.print.strategy.dynamic", "Dynamic"),
  4: message("plots.print.strategy.supra", "Supra-threshold"),
  5: message("plots.print.strategy.oneLevel", "1LT"),
  999: message("plots.print.strategy.sorsScreening", "SORS screening"),
};
const sexMessages: Record<number, Message> = {
  0: message("plots.print.sex.female", "female"),
  1: message("plots.print.sex.male", "male"),
  2: message("plots.print.sex.other", "other"),
};
const ghtMessages: Record<string, Message> = {
  "outside normal limits": message("plots.print.ght.outside", "outside normal limits"),
  borderline: message("plots.print.ght.borderline", "borderline"),
  "general reduction of sensitivity": message("plots.print.ght.reduction", "general reduction of sensitivity"),
  "abnormally high sensitivity": message("plots.print.ght.high", "abnormally high sensitivity"),
  "within normal limits": message("plots.print.ght.within", "within normal limits"),
};

const dash = "–";
const f2 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? dash : v.toFixed(2));
const pct = (c: { errors: number; presentations: number }) => (c.presentations > 0 ? `${c.errors}/${c.presentations} (${Math.round((100 * c.errors) / c.presentations)} %)` : dash);
const mmss = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
/** "p < 5 %" as a message, or "" within normal limits. */
const pText = (level: Parameters<typeof significance>[0]): Message | string => {
  const p = significance(level);
  return p === null ? "" : message("plots.print.pBelow", "p < {percent} %", { percent: p * 100 });
};

/** The header: identity and test at the left, indices and reliability in two columns at the right. */
function headerNodes(input: PrintPageInput, box: Box): SceneNode[] {
  const { patient, result: r, analysis: a, taken } = input;
  const u = input.page.unitsPerMm;
  const size = 2.9 * u, small = 2.5 * u, line = 4.2 * u;
  const left: SceneNode[] = [
    text(0, 0, message("plots.print.title", "Perimetry"), { size: 3.2 * u, anchor: "start", baseline: "top", weight: "bold", fill: "plot-ink-muted" }),
    text(0, 5 * u, patient.name, { size: 4.6 * u, anchor: "start", baseline: "top", weight: "bold" }),
  ];
  const rows: Array<[Message, string | Message]> = [
    [message("plots.print.patientId", "Patient ID"), patient.uniqueId],
    [message("plots.print.born", "Born"), message("plots.print.bornValue", "{date} ({age} years at the test), {sex}", { date: patient.birthdate, age: input.age, sex: sexMessages[patient.gender] ?? "" })],
    [message("plots.print.test", "Test"), message("plots.print.testValue", "{pattern} · {strategy} · {eye}", { pattern: patternLabel[r.pattern], strategy: strategyMessages[r.strategy] ?? "", eye: eyeMessages[r.eye] ?? "" })],
    [message("plots.print.taken", "Taken"), `${taken.date} ${taken.time.slice(0, 5)} (UTC${taken.offset})`],
    [message("plots.print.duration", "Duration"), message("plots.print.durationValue", "{duration} min, {count} stimuli", { duration: mmss(r.examinationTimeInSeconds), count: r.presentations })],
    [message("plots.print.device", "Device"), message("plots.print.deviceValue", "{device}, background {background} asb", { device: r.deviceAlias ?? dash, background: r.background })],
    [message("plots.print.normals", "Normative database"), a.normative?.database ?? message("plots.print.noNormals", "none")],
  ];
  const labelX = 0, valueX = 27 * u;
  rows.forEach(([label, value], i) => {
    const y = 13 * u + i * line;
    left.push(text(labelX, y, label, { size: small, anchor: "start", baseline: "top", fill: "plot-ink-muted" }));
    left.push(text(valueX, y, value, { size, anchor: "start", baseline: "top" }));
  });

  // Indices with their p-values (a global index outside normal limits), then reliability.
  const nv = a.normative;
  const screening = isScreeningResult(r);
  const indices: Array<[Message, string, Message | string]> = [];
  if (a.estermanScore !== null) indices.push([message("plots.print.esterman", "Esterman score"), `${a.estermanScore} %`, ""]);
  else if (screening) {
    const seen = r.thresholds.filter((v) => locationSeen(v, true)).length;
    indices.push([message("plots.print.seen", "Seen"), `${Math.round((100 * seen) / Math.max(1, r.thresholds.length))} %`, ""]);
  } else {
    indices.push(
      [message("plots.print.md", "MD"), nv ? `${f2(nv.global.tmd)} dB` : dash, pText(nv?.globalLevels.tmd)],
      [message("plots.print.psd", "PSD"), nv ? `${f2(nv.global.psd)} dB` : dash, pText(nv?.globalLevels.psd)],
      [message("plots.print.vfi", "VFI"), nv ? `${Math.round(nv.global.vfi)} %` : dash, pText(nv?.globalLevels.vfi)],
      [message("plots.print.ght", "GHT"), "", nv?.ght ? ghtMessages[nv.ght.outcome]! : message("plots.print.notApplicable", "not applicable")],
      [message("plots.print.ms", "Mean sensitivity"), `${f2(a.display.meanSensitivity)} dB`, ""],
      [message("plots.print.meanDefect", "Mean defect"), `${f2(a.display.meanDefect ?? r.meanDefect)} dB`, ""],
      [message("plots.print.slv", "sLV"), `${f2(a.display.slv ?? r.squareRootLossVariance)} dB`, ""],
    );
  }
  const ct = r.catchTrials;
  const rel = a.reliability;
  const reliable = rel.reliable && input.markedReliable;
  const reliability: Array<[Message, string]> = [
    [message("plots.print.falsePositives", "False positives"), pct(ct.falsePositive)],
    [message("plots.print.falseNegatives", "False negatives"), pct(ct.falseNegative)],
    [message("plots.print.fixationLosses", "Fixation losses"), pct(ct.blindSpot)],
  ];
  const colX = box.width * 0.48;
  const right: SceneNode[] = [text(colX, 0, message("plots.print.indices", "Indices"), { size: small, anchor: "start", baseline: "top", weight: "bold", fill: "plot-ink-muted" })];
  indices.forEach(([label, value, p], i) => {
    const y = 5 * u + i * line;
    right.push(
      text(colX, y, label, { size: small, anchor: "start", baseline: "top", fill: "plot-ink-muted" }),
      // The GHT's outcome is words, not a number: it starts where the values' column does.
      value === "" && typeof p !== "string"
        ? text(colX + 18 * u, y, p, { size, anchor: "start", baseline: "top" })
        : text(colX + 34 * u, y, value, { size, anchor: "end", baseline: "top", tabular: true }),
      ...(value === "" ? [] : [text(colX + 36 * u, y, p, { size: small, anchor: "start", baseline: "top", weight: "bold" as const })]),
    );
  });
  const relX = box.width * 0.79;
  right.push(text(relX, 0, message("plots.print.reliability", "Reliability"), { size: small, anchor: "start", baseline: "top", weight: "bold", fill: "plot-ink-muted" }));
  reliability.forEach(([label, value], i) => {
    const y = 5 * u + i * line;
    right.push(
      text(relX, y, label, { size: small, anchor: "start", baseline: "top", fill: "plot-ink-muted" }),
      text(box.width, y, value, { size, anchor: "end", baseline: "top", tabular: true }),
    );
  });
  right.push(
    text(relX, 5 * u + reliability.length * line + 1 * u,
      reliable ? message("plots.print.reliable", "Reliable") : message("plots.print.unreliable", "Unreliable"),
      { size, anchor: "start", baseline: "top", weight: "bold", fill: reliable ? "plot-ink" : "plot-notice" }),
  );
  return [{ kind: "group", x: box.x, y: box.y, role: "print.header", children: [...left, ...right] }];
}

/**
 * The page scene. Groups by role: "print.header", "print.plots" (each plot a group with its plot id as role, the
 * legends as "legend.*"), "print.gaze".
 */
export function printPageScene(input: PrintPageInput): Scene {
  const { page, result, analysis } = input;
  const regions = printRegions(page.width, page.height, page.unitsPerMm);
  const gap = 1.5 * page.unitsPerMm;
  const area = regions.plots;
  // The plots come first (their count decides the grid: fewer plots get larger cells, so the dense centre of a G
  // or 10-2 field keeps its labels apart); each scene is then built at its cell's size.
  const list = (p: ReturnType<typeof resultPlots>) => [
    p.grayscale, p.octopusThresholds, p.numerical,
    p.loss, p.totalDeviationProbability, p.patternDeviationProbability,
    p.humphreyThresholds, p.totalDeviation, p.patternDeviation,
    p.bebie, p.difference,
  ].filter((s): s is Scene => s !== null);
  const plotsAt = (width: number, height: number) => resultPlots({
    result,
    analysis,
    reference: input.reference ?? null,
    medium: "print",
    field: { width, height },
    gaze: { width: regions.gaze.width, height: regions.gaze.height },
  });
  const items = list(plotsAt(100, 100)).length + 1; // + the legends' cell
  const columns = items <= 6 ? 2 : 3;
  const rows = Math.max(2, Math.ceil(items / columns));
  const cells = gridCells(area, columns, rows, gap);
  const cell = cells[0]!;
  const plots = plotsAt(cell.width, cell.height);
  const single = plots.esterman ?? plots.screening;
  const scenes: Scene[] = single ? [single] : list(plots);
  const placed: SceneNode[] = single
    ? [placeScene(single, area)]
    : scenes.slice(0, columns * rows).map((scene, i) => placeScene(scene, cells[i]!));
  // The legends of the printed colours and symbols (probabilities "< 5 %" ... as on the screen) in the first free
  // cell, at their own size; a screening or Esterman page explains itself in its plot.
  const free = single ? undefined : cells[scenes.length];
  if (free) {
    const half = Math.floor(free.width / 2) - 2;
    [thresholdColourLegend(half), totalDeviationLegend(half)].forEach((legend, i) => {
      const box = { x: free.x + i * (free.width / 2), y: free.y, width: Math.min(free.width / 2, legend.width), height: Math.min(free.height, legend.height) };
      placed.push(placeScene(legend, box));
    });
  }
  const gaze = plots.gaze ? [placeScene(plots.gaze, regions.gaze)] : [
    text(regions.gaze.x, regions.gaze.y + regions.gaze.height / 2, message("plots.print.noGaze", "Gaze was not tracked in this test."), {
      size: 2.8 * page.unitsPerMm, anchor: "start", fill: "plot-ink-muted",
    }),
  ];
  return {
    plot: "print.page",
    width: page.width,
    height: page.height,
    background: "plot-background",
    nodes: [
      ...headerNodes(input, regions.header),
      { kind: "group", x: 0, y: 0, role: "print.plots", children: placed },
      { kind: "group", x: 0, y: 0, role: "print.gaze", children: gaze },
    ],
  };
}
