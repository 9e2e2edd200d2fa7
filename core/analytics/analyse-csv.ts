import { Eye, Pattern } from "../model/enums.ts";
import { globalIndices, humphreyMdPsd } from "./global-indices.ts";
import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase } from "./normative/registry.ts";
import { lutProbabilities, type NormativeTables, type ProbabilityLevel } from "./normative/tables.ts";
import { getPattern, type PatternGeometry } from "./patterns.ts";
import { generalHeight, patternDeviation, totalDeviation } from "./pointwise.ts";
import { isoDateToDays, linearRegression, pointwiseRegression, yearsSinceFirst } from "./progression/linear-regression.ts";
import { poplr } from "./progression/poplr.ts";
import { eyeProgression } from "./progression/eye-progression.ts";
import type { SeriesCriteria } from "./progression/criteria/index.ts";
import { estermanScore } from "./esterman.ts";
import { fieldDeviations, fieldIndices, nullWhereNaN, type FieldDeviations, type FieldIndices } from "./field-deviations.ts";
import { locationSeen } from "./seen.ts";
import { fieldStages, type FieldStages } from "./stages/index.ts";
import {
  CsvError,
  isScreeningType,
  parseVisualFieldsCsv,
  storedLocationValue,
  visualFieldRows,
  type VisualFieldRow,
} from "./visualfields-csv.ts";

/**
 * The research entry point behind `npm run --silent analyse -- FILE.csv [--series]` (and `isopter analyse`):
 * visualFields-layout CSV in, JSON out, with the field names and meanings of visualFields 1.0.8.
 * Patterns by location count (patternForLocationCount); each row is analysed as a stored result is (analyseResult,
 * with the current normative version: SUNY-IU for 24-2 and 10-2 as visualFields, the full-field model for 30-2 and G),
 * so a CSV export read back gives the indices the result page shows. Without a
 * normative database for the pattern the deviation fields are null; Esterman rows carry the Esterman score, screening
 * rows the share of locations seen.
 */
export interface RowOutput {
  id: string;
  eye: string;
  date: string;
  td: Array<number | null> | null;
  tdp: Array<ProbabilityLevel | null> | null;
  pd: Array<number | null> | null;
  pdp: Array<ProbabilityLevel | null> | null;
  gh: number | null;
  msens: number;
  ssens: number | null;
  tmd: number | null;
  tsd: number | null;
  pmd: number | null;
  psd: number | null;
  vfi: number | null;
  pattern: string;
  /** Rounded percentage of locations seen (every row; the Esterman score on Esterman). */
  seen: number;
}
export interface SeriesOutput {
  id: string;
  eye: string;
  nvisits: number;
  glr: { slope: number; intercept: number; se: number; p: number };
  plr: Array<{ slope: number; p: number } | null>;
  poplr: { csl: number; cslp: number; csr: number; csrp: number };
  /**
   * The progression analysis the perimetry page shows (progression/eye-progression.ts): GPA-style events against the
   * first two visits (location indices deteriorated on the last visit, the last 2, the last 3), PoPLR's p on TD and
   * the VFI trend; the trends are null (with `noTrend` saying why) for visits spanning under 6 months. `criteria`
   * (issue 30): every published progression criterion's verdict (worsening, stable, improving) with its figures, or
   * "not applicable" and why, in METHOD_IDS order, and the eye's one reading (progression/criteria/index.ts).
   */
  progression: {
    events: { status: string; once: number[]; twice: number[]; thrice: number[] } | null;
    poplrTdP: number | null;
    vfi: { ratePerYear: number; p: number } | null;
    noTrend: string | null;
    criteria: SeriesCriteria | null;
  };
}

const patternsByCount = new Map(
  ([Pattern.P24_2, Pattern.P30_2, Pattern.P10_2, Pattern.G, Pattern.S28, Pattern.C40, Pattern.Esterman] as const).map((p) => [
    getPattern(p).points.length,
    p,
  ]),
);

export function patternForLocationCount(n: number): Pattern {
  const pattern = patternsByCount.get(n);
  if (pattern === undefined)
    throw new CsvError(
      `cannot tell the pattern from ${n} location columns (${[...patternsByCount].map(([k, p]) => `${k} = ${getPattern(p).label}`).join(", ")})`,
    );
  return pattern;
}

function tablesFor(rows: readonly VisualFieldRow[]): { nv: NormativeTables; pattern: Pattern } {
  const n = rows[0]?.sensitivities.length ?? 0;
  const pattern = patternForLocationCount(n);
  const nv = getNormativeDatabase(pattern, CURRENT_NORMATIVE_VERSION);
  if (!nv) throw new CsvError(`no normative database for pattern ${getPattern(pattern).label}: a series needs one`);
  return { nv, pattern };
}

const eyeOf = { OD: Eye.Right, OS: Eye.Left, OU: Eye.Binocular } as const;

/** The row's values as a result stores them (a screening miss is 0 there, -1 in the CSV). */
export function storedValues(row: VisualFieldRow, pattern: Pattern): number[] {
  const screening = pattern === Pattern.Esterman || isScreeningType(row.type);
  return row.sensitivities.map((v) => storedLocationValue(v, screening));
}

export function analyseRows(rows: readonly VisualFieldRow[]): RowOutput[] {
  return [...analyseEachRow(rows)];
}

/** analyseRows one row at a time (the pattern from the first row): nothing of a row is kept once it is passed on. */
export function* analyseEachRow(rows: Iterable<VisualFieldRow>): Generator<RowOutput> {
  let file: FileTables | undefined;
  let k = 0;
  for (const r of rows) {
    file ??= fileTables(patternForLocationCount(r.sensitivities.length));
    yield rowOutput(r, analyseRow(r, k++, file, fieldDeviations), file);
  }
}

/**
 * analyseEachRow with each row's glaucoma stages (`isopter analyse --stages`, core/analytics/stages), read as
 * analyseResult reads a stored result, and the row's table summary.
 */
export function* stageEachRow(rows: Iterable<VisualFieldRow>): Generator<{ row: RowOutput; summary: RowSummary; stages: FieldStages }> {
  let file: FileTables | undefined;
  let k = 0;
  for (const r of rows) {
    file ??= fileTables(patternForLocationCount(r.sensitivities.length));
    const analysed = analyseRow(r, k++, file, fieldDeviations);
    const row = rowOutput(r, analysed, file);
    const { nv, pattern } = file;
    const stages = fieldStages({
      pattern,
      screening: analysed.screening,
      thresholds: analysed.thresholds,
      deviations:
        nv && row.td && row.tdp && row.pdp ? { td: row.td, tdp: row.tdp, pdp: row.pdp, humphrey: humphreyMdPsd(nv, row.td) } : null,
    });
    const under5 = (levels: RowOutput["tdp"]) => (levels ? levels.filter((l) => l !== null && l <= 0.05).length : null);
    const summary: RowSummary = { ...row, tdpUnder5: under5(row.tdp), pdpUnder5: under5(row.pdp) };
    yield { row, summary, stages };
  }
}

/** What `isopter analyse` prints of a row in its table: the indices, and how many locations each map flags at 5%. */
export interface RowSummary {
  readonly id: string;
  readonly eye: string;
  readonly date: string;
  readonly msens: number;
  readonly tmd: number | null;
  readonly psd: number | null;
  readonly gh: number | null;
  readonly vfi: number | null;
  /** Locations with a TD (PD) level of 5% or less; null without a normative analysis. */
  readonly tdpUnder5: number | null;
  readonly pdpUnder5: number | null;
}

/** analyseEachRow's numbers for the table, without building the per-location arrays it leaves out. */
export function* summariseEachRow(rows: Iterable<VisualFieldRow>): Generator<RowSummary> {
  let file: FileTables | undefined;
  let k = 0;
  for (const r of rows) {
    file ??= fileTables(patternForLocationCount(r.sensitivities.length));
    const { d, msens } = analyseRow(r, k++, file, fieldIndices);
    yield {
      id: r.id,
      eye: r.eye,
      date: r.date,
      msens,
      tmd: d?.global.tmd ?? null,
      psd: d?.global.psd ?? null,
      gh: d?.gh ?? null,
      vfi: d?.global.vfi ?? null,
      tdpUnder5: d?.tdpUnder5 ?? null,
      pdpUnder5: d?.pdpUnder5 ?? null,
    };
  }
}

/** What every row of a file shares: looked up once per file, not once per row. */
interface FileTables {
  readonly pattern: Pattern;
  readonly geometry: PatternGeometry;
  readonly nv: NormativeTables | null;
  /** 1 at the blind spots, by location. */
  readonly blindSpot: Uint8Array;
  /** isScreeningType, remembering the last type read (a file's rows mostly share one). */
  readonly isScreeningType: (type: string) => boolean;
}

function fileTables(pattern: Pattern): FileTables {
  const geometry = getPattern(pattern);
  const nv = geometry.binocular ? null : getNormativeDatabase(pattern, CURRENT_NORMATIVE_VERSION);
  const blindSpot = new Uint8Array(geometry.points.length);
  for (const i of geometry.blindSpotIndices) blindSpot[i] = 1;
  let lastType: string | undefined;
  let lastScreening = false;
  const screeningType = (type: string) => {
    if (type !== lastType) {
      lastType = type;
      lastScreening = isScreeningType(type);
    }
    return lastScreening;
  };
  return { pattern, geometry, nv, blindSpot, isScreeningType: screeningType };
}

/** One row analysed: the deviations (views, valid until the next row) when the pattern has normals and the field is complete. */
interface AnalysedRow<D extends FieldIndices> {
  readonly d: D | null;
  readonly msens: number;
  /** The values as the result stores them, and whether they are screening levels (for `seen`). */
  readonly thresholds: readonly number[];
  readonly screening: boolean;
}

/** The numbers analyseResult gives the stored result (fieldDeviations, as deviationIndices), without what the output leaves out. */
function analyseRow<D extends FieldIndices>(
  r: VisualFieldRow,
  k: number,
  file: FileTables,
  analyse: (nv: NormativeTables, geometry: PatternGeometry, thresholds: readonly number[], age: number) => D,
): AnalysedRow<D> {
  const { pattern, geometry, nv, blindSpot } = file;
  if (r.sensitivities.length !== geometry.points.length)
    throw new CsvError(`row ${k + 1}: ${r.sensitivities.length} locations, the file's first row has ${geometry.points.length}`);
  const screening = pattern === Pattern.Esterman || file.isScreeningType(r.type);
  // (A thresholding row stores its values as they are: no copy.)
  const thresholds = screening ? storedValues(r, pattern) : r.sensitivities;
  // (Every location of a CSV row holds a number, so the field is complete: the deviations exist wherever normals do.)
  const d = nv ? analyse(nv, geometry, thresholds, r.age) : null;
  if (d) return { d, msens: d.global.msens, thresholds, screening };
  const measured = measuredSeen(thresholds, blindSpot, screening);
  return { d, msens: measured.sum / measured.count, thresholds, screening };
}

/** Rounded percentage of locations seen (outside the blind spots); the Esterman score on Esterman. */
function seenOf({ thresholds, screening }: AnalysedRow<FieldIndices>, { pattern, blindSpot }: FileTables): number {
  if (pattern === Pattern.Esterman) return estermanScore(thresholds);
  const measured = measuredSeen(thresholds, blindSpot, screening);
  return Math.round((100 * measured.seen) / measured.count);
}

function rowOutput(r: VisualFieldRow, analysed: AnalysedRow<FieldDeviations>, file: FileTables): RowOutput {
  const { d, msens } = analysed;
  return {
    id: r.id,
    eye: r.eye,
    date: r.date,
    td: d && nullWhereNaN(d.td),
    tdp: d && nullWhereNaN<ProbabilityLevel>(d.tdp),
    pd: d && nullWhereNaN(d.pd),
    pdp: d && nullWhereNaN<ProbabilityLevel>(d.pdp),
    gh: d?.gh ?? null,
    msens,
    ssens: d?.global.ssens ?? null,
    tmd: d?.global.tmd ?? null,
    tsd: d?.global.tsd ?? null,
    pmd: d?.global.pmd ?? null,
    psd: d?.global.psd ?? null,
    vfi: d?.global.vfi ?? null,
    pattern: file.geometry.label,
    seen: seenOf(analysed, file),
  };
}

/** The locations other than the blind spots: how many, their sum (in order) and how many were seen. */
function measuredSeen(
  thresholds: readonly number[],
  blindSpot: Uint8Array,
  screening: boolean,
): { count: number; sum: number; seen: number } {
  let count = 0,
    sum = 0,
    seen = 0;
  for (let i = 0; i < thresholds.length; i++) {
    if (blindSpot[i] === 1) continue;
    const v = thresholds[i]!;
    count++;
    sum += v;
    if (locationSeen(v, screening)) seen++;
  }
  return { count, sum, seen };
}

/** One entry per id and eye with at least 3 visits, in order of first appearance; visits sorted by date and time. */
export function analyseSeriesRows(rows: readonly VisualFieldRow[]): SeriesOutput[] {
  if (rows.length === 0) return [];
  const { nv, pattern } = tablesFor(rows);
  const geometry = getPattern(pattern);
  const blind = new Set(nv.blindSpotIndices);
  const groups = new Map<string, VisualFieldRow[]>();
  for (const r of rows) {
    const k = JSON.stringify([r.id, r.eye]);
    const group = groups.get(k);
    if (group) group.push(r);
    else groups.set(k, [r]); // (copying the group at every row made a long series quadratic)
  }
  const out: SeriesOutput[] = [];
  for (const visits of groups.values()) {
    if (visits.length < 3) continue;
    const sorted = [...visits].sort((a, b) => isoDateToDays(a.date) - isoDateToDays(b.date) || a.time.localeCompare(b.time));
    const years = yearsSinceFirst(sorted.map((v) => isoDateToDays(v.date)));
    const sens = sorted.map((v) => v.sensitivities.map((s, i) => (blind.has(i) ? null : s)));
    const tmd = sorted.map((v, k) => {
      const td = totalDeviation(nv, v.sensitivities, v.age);
      const pd = patternDeviation(td, generalHeight(td, nv.ghRank));
      return globalIndices(nv, geometry, sens[k]!, td, pd, v.age).tmd;
    });
    const g = linearRegression(years, tmd);
    const p = poplr(years, sens, { seed: 1 });
    out.push({
      id: sorted[0]!.id,
      eye: sorted[0]!.eye,
      nvisits: sorted.length,
      glr: { slope: g.slope, intercept: g.intercept, se: g.se, p: g.p },
      plr: pointwiseRegression(years, sens).map((r) => (r ? { slope: r.slope, p: r.p } : null)),
      poplr: { csl: p.csl, cslp: p.cslp, csr: p.csr, csrp: p.csrp },
      progression: progressionOf(pattern, sorted),
    });
  }
  return out;
}

function progressionOf(pattern: Pattern, visits: readonly VisualFieldRow[]): SeriesOutput["progression"] {
  const eye = eyeOf[visits[0]!.eye];
  const a = eyeProgression(
    visits.map((v, k) => ({
      id: String(k),
      takenAt: `${v.date}T${/^\d\d:\d\d(:\d\d)?$/.test(v.time) ? v.time : "00:00:00"}Z`,
      eye,
      pattern,
      age: v.age,
      thresholds: v.sensitivities,
      normativeVersion: CURRENT_NORMATIVE_VERSION,
      valid: true,
      unreliable: false,
    })),
    { eye, pattern },
  );
  return {
    events: a.events && { status: a.events.status, once: a.events.once, twice: a.events.twice, thrice: a.events.thrice },
    poplrTdP: a.poplr?.p ?? null,
    vfi: a.vfi,
    noTrend: a.noTrend,
    criteria: a.criteria,
  };
}

/** CSV text in, JSON text out (what the CLI prints). Throws CsvError on bad input. */
export function analyseCsvText(csv: string, options: { series?: boolean; stages?: boolean } = {}): string {
  return [...analyseCsvChunks(csv, options)].join("");
}

/**
 * analyseCsvText in pieces of about `chunkChars` characters, the same text once joined. Rows are parsed, analysed and
 * written one at a time, so a file of 100,000 rows runs at the speed of one row and its memory stays flat (a series
 * needs all visits of an eye, so --series still reads the whole file first).
 */
export function* analyseCsvChunks(
  csv: string,
  options: { series?: boolean; stages?: boolean } = {},
  chunkChars = 1 << 16,
): Generator<string> {
  if (options.series) {
    yield JSON.stringify(analyseSeriesRows(parseVisualFieldsCsv(csv))) + "\n";
    return;
  }
  let chunk = "[";
  let first = true;
  /** Adds a row's JSON; true when the chunk is full. */
  const add = (json: string) => {
    chunk += (first ? "" : ",") + json;
    first = false;
    return chunk.length >= chunkChars;
  };
  // With --stages each row closes with its stages (`"stages":{...}`), after the fields rowJson writes.
  if (options.stages)
    for (const { row, stages } of stageEachRow(visualFieldRows(csv))) {
      if (add(`${rowJson(row).slice(0, -1)},"stages":${JSON.stringify(stages)}}`)) {
        yield chunk;
        chunk = "";
      }
    }
  else
    for (const row of analyseEachRow(visualFieldRows(csv))) {
      if (add(rowJson(row))) {
        yield chunk;
        chunk = "";
      }
    }
  yield chunk + "]\n";
}

/**
 * JSON.stringify(row), written key by key (a test holds the two equal): a 24-2 row carries 108 probability levels, and
 * formatting them as doubles cost about 10 µs a row, looking their texts up (levelsJson) about 2.
 */
function rowJson(r: RowOutput): string {
  return (
    `{"id":${JSON.stringify(r.id)},"eye":${JSON.stringify(r.eye)},"date":${JSON.stringify(r.date)}` +
    `,"td":${JSON.stringify(r.td)},"tdp":${levelsJson(r.tdp)},"pd":${JSON.stringify(r.pd)},"pdp":${levelsJson(r.pdp)}` +
    `,"gh":${numberJson(r.gh)},"msens":${numberJson(r.msens)},"ssens":${numberJson(r.ssens)},"tmd":${numberJson(r.tmd)}` +
    `,"tsd":${numberJson(r.tsd)},"pmd":${numberJson(r.pmd)},"psd":${numberJson(r.psd)},"vfi":${numberJson(r.vfi)}` +
    `,"pattern":${JSON.stringify(r.pattern)},"seen":${numberJson(r.seen)}}`
  );
}

/** A number as JSON writes it: its shortest text, null when not finite. */
const numberJson = (v: number | null): string => (v !== null && Number.isFinite(v) ? String(v) : "null");

const LEVELS: ReadonlyArray<ProbabilityLevel | null> = [1, ...lutProbabilities, null];
const LEVEL_TEXTS: readonly string[] = LEVELS.map((p) => JSON.stringify(p));
const COMMA_LEVEL_TEXTS: readonly string[] = LEVEL_TEXTS.map((text) => "," + text);

/** A map of probability levels as JSON: each level's text (with its comma) looked up, not formatted (see rowJson). */
function levelsJson(levels: ReadonlyArray<ProbabilityLevel | null> | null): string {
  if (levels === null) return "null";
  let json = "[";
  for (let i = 0; i < levels.length; i++) {
    const k = LEVELS.indexOf(levels[i]!);
    json += k < 0 ? (i === 0 ? "" : ",") + JSON.stringify(levels[i]) : (i === 0 ? LEVEL_TEXTS : COMMA_LEVEL_TEXTS)[k];
  }
  return json + "]";
}
