import type { AcuityChart } from "../model/acuity.ts";
import { LOGMAR_MAX, LOGMAR_MIN } from "../model/acuity.ts";
import type { ColourVisionClassification } from "../model/colour-vision.ts";

// Visual acuity and colour vision: the pure rules behind the acuity and colour-vision results (core/model/acuity.ts,
// colour-vision.ts). The seeds name these test types but give no rules; these are the conventions clinics use.

// ---- visual acuity -------------------------------------------------------------------------------------------------

/** One chart line: its logMAR and the conventional Snellen (6 m and 20 ft) and decimal notations of that line. */
export interface AcuityNotation {
  /** logMAR of the line the value falls on (a tenth). */
  readonly lineLogMAR: number;
  /** 6/x: x in metres. */
  readonly metres: number;
  /** 20/x: x in feet. */
  readonly feet: number;
  readonly decimal: number;
}

// The lines of a logMAR chart from -0.3 to 2.0 in tenths, with the notations charts print for them (preferred-number
// series: 20/25, 20/32, 20/40 ... and 6/7.5, 6/9.5, 6/12 ...; decimal 0.8, 0.63, 0.5 ...).
const LINES: ReadonlyArray<readonly [metres: number, feet: number, decimal: number]> = [
  [3, 10, 2],
  [3.8, 12.5, 1.6],
  [4.8, 16, 1.25], // -0.3 .. -0.1
  [6, 20, 1],
  [7.5, 25, 0.8],
  [9.5, 32, 0.63],
  [12, 40, 0.5],
  [15, 50, 0.4], // 0.0 .. 0.4
  [19, 63, 0.32],
  [24, 80, 0.25],
  [30, 100, 0.2],
  [38, 125, 0.16],
  [48, 160, 0.125], // 0.5 .. 0.9
  [60, 200, 0.1],
  [75, 250, 0.08],
  [95, 320, 0.063],
  [120, 400, 0.05],
  [150, 500, 0.04], // 1.0 .. 1.4
  [190, 630, 0.032],
  [240, 800, 0.025],
  [300, 1000, 0.02],
  [380, 1250, 0.016],
  [480, 1600, 0.0125],
  [600, 2000, 0.01], // 1.5 .. 2.0
];
const FIRST_LINE = -3; // tenths of logMAR of LINES[0]

/**
 * Snellen and decimal equivalents of a logMAR value: the value is rounded to the nearest chart line (a tie goes to the
 * worse line) and clamped to -0.3..2.0; the line's conventional notations are given. logMAR 0 = 6/6 = 20/20 = 1.0,
 * 0.3 = 6/12 = 20/40 = 0.5, 1.0 = 6/60 = 20/200 = 0.1.
 */
export const acuityNotation = (logMAR: number): AcuityNotation => {
  const tenths = Math.min(Math.max(Math.round(Math.round(logMAR * 1000) / 100), FIRST_LINE), FIRST_LINE + LINES.length - 1);
  const [metres, feet, decimal] = LINES[tenths - FIRST_LINE]!;
  return { lineLogMAR: tenths / 10, metres, feet, decimal };
};

/** "6/12" */
export const snellenMetres = (logMAR: number): string => `6/${acuityNotation(logMAR).metres}`;
/** "20/40" */
export const snellenFeet = (logMAR: number): string => `20/${acuityNotation(logMAR).feet}`;

/** Letters per line and the logMAR of the top line of each chart the headset shows (ETDRS layout for all four kinds). */
export const ACUITY_CHART = { lettersPerLine: 5, topLogMAR: 1, bottomLogMAR: -0.3 } as const;

/**
 * Letter-by-letter scoring (ETDRS): each optotype read is worth 0.1 / lettersPerLine logMAR, counted from half a line
 * above the top line: logMAR = top + 0.1 - 0.02 x read on a 5-letter chart with top 1.0 (5 read = 1.0, 70 read = -0.3,
 * none read = 1.1). Rounded to 2 decimals, kept within the model's range. The chart kind does not change the scoring.
 */
export const logMARFromOptotypesRead = (read: number, chart: { lettersPerLine: number; topLogMAR: number } = ACUITY_CHART): number => {
  const raw = chart.topLogMAR + 0.1 - (0.1 / chart.lettersPerLine) * Math.max(0, Math.floor(read));
  return Math.min(LOGMAR_MAX, Math.max(LOGMAR_MIN, Math.round(raw * 100) / 100));
};

/** Optotype kinds the chart shows (for labels). */
export const ACUITY_CHARTS: readonly AcuityChart[] = ["etdrs", "snellen", "tumbling-e", "landolt-c"];

// ---- colour vision -------------------------------------------------------------------------------------------------

/**
 * Plate kinds of a pseudo-isochromatic test: a demonstration plate everyone reads (also colour-deficient patients);
 * red-green screening plates (Ishihara); classification plates telling protan from deutan (two numerals, each seen by one
 * kind); tritan plates (blue-yellow, HRR-style).
 */
export type PlateKind = "demonstration" | "red-green" | "classification" | "tritan";

/**
 * What the patient read on a plate: the normal reading; the reading a colour-deficient eye gives (red-green and tritan
 * plates); on a classification plate only the protan-side or deutan-side numeral; or nothing / something else.
 */
export type PlateAnswer = "normal" | "deficient" | "protan" | "deutan" | "none";

export interface PlateRead {
  readonly kind: PlateKind;
  readonly answer: PlateAnswer;
}

/** The plates the headset shows, in order: 1 demonstration, 12 red-green, 2 classification, 4 tritan. */
export const COLOUR_PLATES: readonly PlateKind[] = [
  "demonstration",
  ...Array<PlateKind>(12).fill("red-green"),
  ...Array<PlateKind>(2).fill("classification"),
  ...Array<PlateKind>(4).fill("tritan"),
];

/**
 * Red-green marks as a share of the red-green plates read normally, after Ishihara's instructions (24-plate edition: 13
 * or more of 15 normal, 9 or fewer deficient; 38-plate: 17 or more of 21 normal, 13 or fewer deficient): at least 80 %
 * passes, at most 60 % fails, in between the test is inconclusive.
 */
export const RED_GREEN_PASS = 0.8;
export const RED_GREEN_FAIL = 0.6;

export interface ColourVisionScore {
  readonly platesPresented: number;
  readonly platesCorrect: number;
  readonly classification: ColourVisionClassification;
}

/**
 * Classification from the plate answers:
 * - no plates, a demonstration plate not read, or no red-green plate shown: inconclusive;
 * - red-green plates between the marks: inconclusive;
 * - red-green failed and tritan failed (fewer than half its plates read): inconclusive (a general loss the plates
 *   cannot type, e.g. an acquired one);
 * - red-green failed: protan or deutan by the classification plates' answers (more protan than deutan readings gives
 *   protan, and vice versa), red-green when they do not tell;
 * - red-green passed, tritan failed: tritan; otherwise normal.
 * platesCorrect counts plates read normally (the demonstration plate included); the order of the plates does not matter.
 */
export const classifyColourVision = (plates: ReadonlyArray<PlateRead>): ColourVisionScore => {
  const platesPresented = plates.length;
  const platesCorrect = plates.filter((p) => p.answer === "normal").length;
  const of = (kind: PlateKind) => plates.filter((p) => p.kind === kind);
  const score = (classification: ColourVisionClassification): ColourVisionScore => ({ platesPresented, platesCorrect, classification });
  const redGreen = of("red-green");
  if (platesPresented === 0 || redGreen.length === 0 || of("demonstration").some((p) => p.answer !== "normal"))
    return score("inconclusive");
  const share = redGreen.filter((p) => p.answer === "normal").length / redGreen.length;
  const tritan = of("tritan");
  const tritanFailed = tritan.length > 0 && 2 * tritan.filter((p) => p.answer === "normal").length < tritan.length;
  if (share >= RED_GREEN_PASS) return score(tritanFailed ? "tritan" : "normal");
  if (share > RED_GREEN_FAIL || tritanFailed) return score("inconclusive");
  const classification = of("classification");
  const protan = classification.filter((p) => p.answer === "protan").length;
  const deutan = classification.filter((p) => p.answer === "deutan").length;
  return score(protan > deutan ? "protan" : deutan > protan ? "deutan" : "red-green");
};
