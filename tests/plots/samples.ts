// One sample of every scene, shared by the SVG well-formedness test and the render script.
import { Eye, Pattern } from "../../core/model/enums.ts";
import { grayscaleScene } from "../../core/plots/grayscale.ts";
import { humphreyDeviationSymbolsScene, humphreyDeviationValuesScene, humphreyThresholdsScene } from "../../core/plots/humphrey.ts";
import { thresholdColourLegend, totalDeviationLegend, valueLegend } from "../../core/plots/legends.ts";
import { octopusDifferenceScene, octopusLossScene, octopusNumericalScene, octopusThresholdsScene } from "../../core/plots/octopus.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { amslerScene } from "../../core/plots/amsler.ts";
import { bebieScene } from "../../core/plots/bebie.ts";
import { estermanScene } from "../../core/plots/esterman.ts";
import { gazeScene } from "../../core/plots/gaze.ts";
import { liveScene } from "../../core/plots/live.ts";
import { progressionScene, type ProgressionPoint } from "../../core/plots/progression.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { resultPlots } from "../../core/plots/result-plots.ts";
import { gridCells, pageScene, printRegions } from "../../core/plots/page.ts";
import { text } from "../../core/plots/scene.ts";
import { sampleDefects, sampleLevels, sampleThresholds, sampleTotalDeviation } from "./fixtures.ts";

export function sampleScenes(): Record<string, Scene> {
  const box = { pattern: Pattern.P24_2, eye: Eye.Right, width: 320, height: 320 } as const;
  const left = { ...box, eye: Eye.Left } as const;
  const t = sampleThresholds();
  const older = t.map((v, i) => Math.round((v + ((i * 5) % 7) - 2.5) * 10) / 10);
  const analysed = analyseResult({
    pattern: Pattern.P24_2,
    eye: Eye.Left,
    age: 62,
    thresholds: t,
    gazeTracking: { meanDistance: sampleGaze(200), fixationThreshold: 6 },
  });
  const fromAnalysis = Object.entries(
    resultPlots({
      result: {
        pattern: Pattern.P24_2,
        eye: Eye.Left,
        thresholds: t,
        gazeTracking: { meanDistance: sampleGaze(200), fixationThreshold: 6 },
      },
      analysis: analysed,
      reference: older,
      medium: "print",
      field: { width: 280, height: 280 },
    }),
  ).flatMap(([k, v]) => (v ? [[`result-${k}`, v] as const] : []));
  const printed = resultPlots({
    result: { pattern: Pattern.P24_2, eye: Eye.Left, thresholds: t, gazeTracking: { meanDistance: sampleGaze(400), fixationThreshold: 6 } },
    analysis: analysed,
    medium: "print",
    field: { width: 260, height: 260 },
    gaze: { width: 560, height: 52 },
  });
  const regions = printRegions(595, 842);
  const cells = gridCells(regions.plots, 2, 3, 6);
  const onPage = [
    printed.grayscale,
    printed.octopusThresholds,
    printed.totalDeviationProbability,
    printed.patternDeviationProbability,
    printed.loss,
    printed.bebie,
  ];
  const printPage = pageScene(
    "print-page",
    595,
    842,
    [
      ...onPage.flatMap((scene, i) => (scene ? [{ scene, box: cells[i]! }] : [])),
      ...(printed.gaze ? [{ scene: printed.gaze, box: regions.gaze }] : []),
    ],
    [
      text(regions.header.x, regions.header.y + 12, "Sample Patient · OS · 24-2 · 2026-11-20", {
        anchor: "start",
        size: 14,
        weight: "bold",
      }),
      {
        kind: "line",
        x1: regions.header.x,
        y1: regions.header.y + regions.header.height - 4,
        x2: regions.header.x + regions.header.width,
        y2: regions.header.y + regions.header.height - 4,
        stroke: "plot-frame",
        strokeWidth: 0.5,
      },
    ],
  );
  return {
    "print-page": printPage,
    ...Object.fromEntries(fromAnalysis),
    "octopus-thresholds": octopusThresholdsScene({ ...box, thresholds: t }),
    "octopus-grayscale": grayscaleScene({ ...box, thresholds: t }),
    "octopus-grayscale-left-g": grayscaleScene({ ...left, pattern: Pattern.G, thresholds: sampleThresholds(Pattern.G) }),
    "octopus-numerical": octopusNumericalScene({ ...box, thresholds: t }),
    "octopus-loss": octopusLossScene({ ...box, defects: sampleDefects() }),
    "octopus-difference": octopusDifferenceScene({ ...box, current: t, reference: older }),
    "octopus-thresholds-g": octopusThresholdsScene({ ...box, pattern: Pattern.G, thresholds: sampleThresholds(Pattern.G) }),
    "humphrey-thresholds": humphreyThresholdsScene({ ...box, thresholds: t }),
    "humphrey-thresholds-10-2": humphreyThresholdsScene({ ...box, pattern: Pattern.P10_2, thresholds: sampleThresholds(Pattern.P10_2) }),
    "humphrey-total-deviation": humphreyDeviationValuesScene({ ...box, kind: "total", values: sampleTotalDeviation() }),
    "humphrey-total-deviation-probability": humphreyDeviationSymbolsScene({ ...box, kind: "total", levels: sampleLevels() }),
    "humphrey-pattern-deviation-probability-left": humphreyDeviationSymbolsScene({ ...left, kind: "pattern", levels: sampleLevels() }),
    bebie: bebieScene({ defects: sampleDefects(), width: 360, height: 260, normalBand: sampleBebieBand() }),
    "progression-all": progressionScene({
      points: sampleSeries(),
      filter: "all",
      now: "2026-11-20T12:00:00Z",
      baselines: { right: "r2" },
      width: 720,
      height: 280,
    }),
    // Issue 29: an imported Humphrey history continued on Isopter's headsets, each change marked.
    "progression-sources": progressionScene({
      points: sampleSeries().map((p, i) =>
        i < 8
          ? { ...p, strategy: 0, source: { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860", strategyName: "SITA Standard" } }
          : { ...p, strategy: i < 14 ? 3 : 1 },
      ),
      filter: "all",
      now: "2026-11-20T12:00:00Z",
      width: 720,
      height: 280,
    }),
    "progression-12m": progressionScene({ points: sampleSeries(), filter: "12m", now: "2026-11-20T12:00:00Z", width: 720, height: 280 }),
    "gaze-screen": gazeScene({ samples: sampleGaze(120), fixationThreshold: 6, medium: "screen", width: 720, height: 120 }),
    "gaze-print": gazeScene({ samples: sampleGaze(400), fixationThreshold: 6, medium: "print", width: 720, height: 80 }),
    "gaze-print-exceeded": gazeScene({ samples: sampleGaze(700), medium: "print", width: 720, height: 60 }),
    esterman: estermanScene({
      thresholds: getPattern(Pattern.Esterman).points.map((p) => ((p.x < -20 && p.y > 0) || (p.x > 60 && p.y < -20) ? 0 : 10)),
      width: 420,
      height: 340,
    }),
    "live-threshold": liveScene({ ...box, width: 320, height: 360, variant: "threshold", thresholds: sampleLive(), lastUpdatedIndex: 21 }),
    "live-supra-g": liveScene({
      ...box,
      pattern: Pattern.G,
      width: 320,
      height: 360,
      variant: "supra",
      thresholds: sampleLive(),
      lastUpdatedIndex: 21,
    }),
    "amsler-healthy": amslerScene({ answer: "healthy", width: 240, height: 290 }),
    "amsler-wavy": amslerScene({ answer: "wavy", width: 240, height: 290 }),
    "legend-threshold-bands": thresholdColourLegend(),
    "legend-total-deviation": totalDeviationLegend(),
    "legend-value": valueLegend(),
  };
}

/** A made-up normal band for the Bebie curve: widening towards the worst ranks. */
function sampleBebieBand() {
  const n = 52;
  return {
    lower: Array.from({ length: n }, (_, i) => -3 + (i / n) * 1.5),
    upper: Array.from({ length: n }, (_, i) => 1 + 5 * (i / n) ** 3),
  };
}

function sampleSeries(): ProgressionPoint[] {
  const dates = [
    "2022-03-01",
    "2022-09-14",
    "2023-03-20",
    "2023-10-02",
    "2024-04-11",
    "2024-11-05",
    "2025-05-19",
    "2025-12-01",
    "2026-06-15",
    "2026-11-02",
  ];
  return dates.flatMap((d, i): ProgressionPoint[] => [
    {
      measurementId: `r${i}`,
      takenAt: d,
      meanDefect: 2 + i * 0.45 + ((i * 3) % 4) * 0.3,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      valid: true,
      unreliable: i === 4,
    },
    { measurementId: `l${i}`, takenAt: d, meanDefect: 1 + i * 0.1 + ((i * 5) % 3) * 0.4, eye: Eye.Left, pattern: Pattern.G, valid: true },
  ]);
}

/** Gaze samples around 3 with saccades and a few -1 (could not measure). */
function sampleGaze(n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i % 37 === 5 ? -1 : i % 23 === 0 ? 14 + (i % 5) : 2 + ((i * 7) % 5) * 0.6));
}

function sampleLive() {
  return Array.from({ length: 30 }, (_, k) => {
    const index = (k * 7) % 54;
    return { index, dBValue: 20 + (k % 12), answerTime: index === 21 || k % 5 === 0 ? null : 450 + k };
  });
}
