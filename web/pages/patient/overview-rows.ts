import type { AcuityChart } from "../../../core/model/acuity.ts";
import type { ColourVisionClassification } from "../../../core/model/colour-vision.ts";
import type { AmslerAnswer, Eye, Pattern, TestType } from "../../../core/model/enums.ts";
import {
  type Examination,
  isAcuityResult,
  isAmslerResult,
  isColourVisionResult,
  isMeasurementResult,
} from "../../../core/model/examination.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { acuityNotation } from "../../../core/rules/acuity-colour.ts";

// The overview page's recent-tests table ("The overview page has a recent-tests table", accounts seed §2): every taken
// test of the patient in both variants, measurements and taken examinations of all four types, newest first. Each row
// has its date, type, eye, a one-line result summary by type and a link to the result's page where one exists
// (perimetry -> perimetry/{id}?scrollToMeasurement=1, Amsler -> amsler-grid; acuity and colour vision have none).

export type RowSummary =
  | {
      readonly kind: "perimetry";
      readonly pattern: Pattern;
      /** The result's strategy and where it came from (an imported field names its strategy as its file does). */
      readonly result: Pick<MeasurementResult, "strategy" | "deviceAlias" | "source">;
      readonly meanDefect: number | null;
    }
  | { readonly kind: "amsler"; readonly answer: AmslerAnswer }
  | {
      readonly kind: "acuity";
      readonly chart: AcuityChart;
      /** Per eye tested: logMAR and its Snellen (6/x, 20/x) and decimal equivalents. */
      readonly eyes: ReadonlyArray<{ eye: Eye; logMAR: number; metres: string; feet: string; decimal: number }>;
    }
  | {
      readonly kind: "colour";
      readonly platesCorrect: number;
      readonly platesPresented: number;
      readonly classification: ColourVisionClassification;
    }
  /** Taken, but no result was kept (acuity and colour examinations taken before their results were modelled). */
  | { readonly kind: "none" };

export interface OverviewRow {
  /** Unique over both lists: "m:{id}" for a measurement, "e:{id}" for an examination. */
  readonly key: string;
  readonly id: string;
  readonly takenAt: string;
  readonly type: TestType;
  readonly eye: Eye;
  readonly summary: RowSummary;
  /** Relative to the patient's overview route; null when the test has no result page. */
  readonly link: string | null;
}

const perimetryLink = (id: string) => `../perimetry/${id}?scrollToMeasurement=1`;
const AMSLER_LINK = "../amsler-grid";

const fromMeasurement = (m: Measurement): OverviewRow | null => {
  if (m.trashedAt !== null || !m.result) return null;
  return {
    key: `m:${m.id}`,
    id: m.id,
    takenAt: m.result.takenAt,
    type: "perimetry",
    eye: m.result.eye,
    summary: { kind: "perimetry", pattern: m.result.pattern, result: m.result, meanDefect: m.result.meanDefect },
    link: perimetryLink(m.id),
  };
};

const summaryOf = (e: Examination): RowSummary => {
  const r = e.result;
  if (e.type === "perimetry" && isMeasurementResult(r))
    return { kind: "perimetry", pattern: r.pattern, result: r, meanDefect: r.meanDefect };
  if (e.type === "amsler" && isAmslerResult(r)) return { kind: "amsler", answer: r.answer };
  if (e.type === "acuity" && isAcuityResult(r)) {
    const eyes = r.eyes.map((x) => {
      const n = acuityNotation(x.logMAR);
      return { eye: x.eye, logMAR: x.logMAR, metres: `6/${n.metres}`, feet: `20/${n.feet}`, decimal: n.decimal };
    });
    return { kind: "acuity", chart: r.chart, eyes };
  }
  if (e.type === "color-blindness" && isColourVisionResult(r))
    return { kind: "colour", platesCorrect: r.platesCorrect, platesPresented: r.platesPresented, classification: r.classification };
  return { kind: "none" };
};

const linkOf = (e: Examination): string | null => (e.type === "perimetry" ? perimetryLink(e.id) : e.type === "amsler" ? AMSLER_LINK : null);

const fromExamination = (e: Examination): OverviewRow | null => {
  if (e.trashedAt !== null || !e.taken) return null;
  return {
    key: `e:${e.id}`,
    id: e.id,
    takenAt: e.result?.takenAt ?? e.updatedAt,
    type: e.type,
    eye: e.type === "perimetry" && isMeasurementResult(e.result) ? e.result.eye : e.eye,
    summary: summaryOf(e),
    link: linkOf(e),
  };
};

/** Every taken test of both lists, newest first (ties by key, so the order is stable). */
export function overviewRows(measurements: ReadonlyArray<Measurement>, examinations: ReadonlyArray<Examination>): OverviewRow[] {
  const rows = [...measurements.map(fromMeasurement), ...examinations.map(fromExamination)].filter((r): r is OverviewRow => r !== null);
  return rows.sort((a, b) => b.takenAt.localeCompare(a.takenAt) || a.key.localeCompare(b.key));
}
