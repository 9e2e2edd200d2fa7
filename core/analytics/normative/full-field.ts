import type { PatternGeometry, PatternPoint } from "../patterns.ts";
import { probabilityMap, generalHeight, patternDeviation } from "../pointwise.ts";
import { leastSquares, weightedLine } from "../statistics/least-squares.ts";
import { weightedMeanSd } from "../statistics/weighted-quantile.ts";
import type { VisualFieldRow } from "../visualfields-csv.ts";
import { buildAgeLinear } from "./age-linear.ts";
import { subjectWeights } from "./ght-limits.ts";
import type { NormativeTables } from "./tables.ts";

/**
 * Normative databases for patterns without their own control data (30-2, G), from the Iowa full-field healthy
 * controls (Marín-Franch, Artes, Chong, Turpin & Wall, Data in Brief 21:75-82, 2018; shipped in visualFields 1.0.8,
 * Apache-2.0): 98 eyes of 98 adults aged 18-79, two tests each, 64 locations within 26 degrees plus 64 from 26 to 81.
 *
 * The model, fitted once from the controls and evaluated at any pattern's locations:
 * 1. per control location j, healthy sensitivity s = a_j + b_j * age by weighted least squares (weight 1 / visits of the
 *    eye / eyes, so each eye counts once), residual SD sd_j (same weights);
 * 2. spatial: a(p), b(p) and sd(p) at a location p by local-linear Gaussian-kernel regression of a_j, b_j, sd_j on the
 *    control locations' coordinates (bandwidth KERNEL_SD_DEG), so the model is smooth and defined between the grids;
 * 3. scale (`anchor`): the Iowa test is not a Humphrey perimeter, and its sensitivities lie 1 to 4 dB above SUNY-IU's
 *    24-2 normals, more so with eccentricity. Results of one patient on 24-2 and 30-2 must be read on one scale, so
 *    a(p) gets the offset c0 + c1 * eccentricity fitted by least squares to SUNY-IU 24-2's normal values minus the
 *    model's at age ANCHOR_AGE over the 24-2 locations; slopes stay Iowa's. Model 2 also scales the spread sd(p) by
 *    k0 + k1 * eccentricity fitted to SUNY-IU 24-2's TD SDs over the model's (Humphrey's healthy spread is wider);
 * 4. look-up tables built like 24-2's (normative/age-linear.ts, the same code): from one control field per test at the
 *    pattern's locations, N(p, age) + r_k,nn(p) * sd(p) / sd_nn(p), where r_k,nn is that test's residual at the control
 *    location nearest p. The field's own residuals keep its spatial correlation and the tails of the distribution;
 *    the scaling gives the modelled spread. GH rank = floor(0.15 n), as visualFields' 24-2 (7) and 10-2 (10).
 */
export const KERNEL_SD_DEG = 5;
export const ANCHOR_AGE = 60;
export const POOLED_LUTS = true;

/** Control tests over a set of locations (right-eye orientation), one row per test. */
export interface ControlSet {
  readonly points: readonly PatternPoint[];
  readonly rows: readonly VisualFieldRow[];
}

/** Splits one CSV line on commas outside double quotes and unquotes each cell ("" is a quote). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "",
    quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

const csvRecords = (text: string, what: string): Array<Record<string, string>> => {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = csvCells(lines[0] ?? "");
  return lines.slice(1).map((line, r) => {
    const cells = csvCells(line);
    if (cells.length !== header.length) throw new Error(`${what} line ${r + 2}: expected ${header.length} fields, got ${cells.length}`);
    return Object.fromEntries(header.map((h, i) => [h, cells[i]!]));
  });
};

const num = (v: string | undefined, where: string): number => {
  const x = Number(v);
  if (v === undefined || v.trim() === "" || !Number.isFinite(x)) throw new Error(`${where}: not a number ("${v ?? ""}")`);
  return x;
};

/** A location map CSV (`x,y` per line). */
export function parseLocationMap(text: string, what: string): PatternPoint[] {
  return csvRecords(text, what).map((r, i) => ({ x: num(r.x, `${what} row ${i + 1} x`), y: num(r.y, `${what} row ${i + 1} y`) }));
}

/** The Iowa control CSV (quoted, extra columns) as rows over `n` locations. */
export function parseIowaControls(text: string, n: number, what: string): VisualFieldRow[] {
  return csvRecords(text, what).map((r, k) => {
    const where = `${what} line ${k + 2}`;
    if (r.eye !== "OD" && r.eye !== "OS") throw new Error(`${where}, field eye: must be OD or OS, got "${r.eye ?? ""}"`);
    return {
      id: r.id ?? "",
      eye: r.eye,
      date: r.date ?? "",
      time: r.time ?? "",
      age: num(r.age, `${where}, field age`),
      type: r.type ?? "",
      fpr: num(r.fpr, `${where}, field fpr`),
      fnr: num(r.fnr, `${where}, field fnr`),
      fl: num(r.fl, `${where}, field fl`),
      duration: r.duration ?? "",
      sensitivities: Array.from({ length: n }, (_, i) => num(r[`l${i + 1}`], `${where}, field l${i + 1}`)),
    };
  });
}

/**
 * The central and peripheral tests of each eye joined into one row over both location sets: the k-th central test
 * of an eye with its k-th peripheral test (the two files list each eye's two sessions in the same order).
 */
export function joinControlSets(central: ControlSet, peripheral: ControlSet): ControlSet {
  const key = (r: VisualFieldRow) => `${r.id}\u0000${r.eye}`;
  const periByEye = new Map<string, VisualFieldRow[]>();
  for (const r of peripheral.rows) periByEye.set(key(r), [...(periByEye.get(key(r)) ?? []), r]);
  const seen = new Map<string, number>();
  const rows = central.rows.flatMap((c) => {
    const k = seen.get(key(c)) ?? 0;
    seen.set(key(c), k + 1);
    const p = periByEye.get(key(c))?.[k];
    return p ? [{ ...c, sensitivities: [...c.sensitivities, ...p.sensitivities] }] : [];
  });
  return { points: [...central.points, ...peripheral.points], rows };
}

/** The fitted full-field model: per control location and, through the kernel, anywhere. */
export interface FullFieldModel {
  readonly controls: ControlSet;
  readonly weights: readonly number[]; // 1 / visits / eyes, per row
  readonly intercept: readonly number[]; // per control location
  readonly slope: readonly number[];
  readonly sd: readonly number[];
  /** Offset added to the intercept: c0 + c1 * eccentricity (zero when not anchored). */
  readonly anchor: { readonly c0: number; readonly c1: number };
  /** Factor on the spread: k0 + k1 * eccentricity (one when not anchored). */
  readonly spread: { readonly k0: number; readonly k1: number };
}

/** Local-linear Gaussian-kernel estimate at p of values given at the control locations. */
export function kernelAt(points: readonly PatternPoint[], values: readonly number[], p: PatternPoint, bandwidth = KERNEL_SD_DEG): number {
  const design = points.map((q) => [1, q.x - p.x, q.y - p.y]);
  const w = points.map((q) => Math.exp(-((q.x - p.x) ** 2 + (q.y - p.y) ** 2) / (2 * bandwidth * bandwidth)));
  return leastSquares(design, values, w)[0]!;
}

const ecc = (p: PatternPoint) => Math.hypot(p.x, p.y);

export function fitFullField(controls: ControlSet): FullFieldModel {
  const wVisits = subjectWeights(controls.rows);
  const eyes = new Set(controls.rows.map((r) => `${r.id}\u0000${r.eye}`)).size;
  const weights = wVisits.map((v) => v / eyes);
  const ages = controls.rows.map((r) => r.age);
  const intercept: number[] = [],
    slope: number[] = [],
    sd: number[] = [];
  controls.points.forEach((_, j) => {
    const s = controls.rows.map((r) => r.sensitivities[j]!);
    const line = weightedLine(ages, s, weights);
    intercept.push(line.intercept);
    slope.push(line.slope);
    sd.push(
      weightedMeanSd(
        s.map((v, k) => v - (line.intercept + line.slope * ages[k]!)),
        wVisits,
      ).sd,
    );
  });
  return { controls, weights, intercept, slope, sd, anchor: { c0: 0, c1: 0 }, spread: { k0: 1, k1: 0 } };
}

/** The model's normal sensitivity at p for `age` (anchor included). */
export function normalAt(m: FullFieldModel, p: PatternPoint, age: number): number {
  const pts = m.controls.points;
  return kernelAt(pts, m.intercept, p) + m.anchor.c0 + m.anchor.c1 * ecc(p) + kernelAt(pts, m.slope, p) * age;
}

/**
 * Anchors the model to a reference normal (SUNY-IU 24-2) over the locations of `geometry` (null at blind spots):
 * - the mean, always: the offset c0 + c1 * eccentricity that best matches the reference's normal at ANCHOR_AGE;
 * - with `spread` (model 2), also the spread: the factor k0 + k1 * eccentricity that best matches the reference's TD
 *   SD over the model's residual SD. The Iowa test's healthy spread is about two thirds of Humphrey's, so model 1
 *   flagged healthy Humphrey fields 2.5 times as often as it should (12.6 % below 5 %).
 */
export function anchorTo(
  m: FullFieldModel,
  geometry: PatternGeometry,
  reference: Pick<NormativeTables, "intercept" | "slope" | "sd">,
  options: { spread?: boolean } = {},
): FullFieldModel {
  const unanchored = { ...m, anchor: { c0: 0, c1: 0 } };
  const locs = geometry.points.flatMap((p, i) => (reference.intercept[i] == null ? [] : [{ p, i }]));
  const design = locs.map(({ p }) => [1, ecc(p)]);
  const diff = locs.map(({ p, i }) => reference.intercept[i]! + reference.slope[i]! * ANCHOR_AGE - normalAt(unanchored, p, ANCHOR_AGE));
  const [c0, c1] = leastSquares(design, diff);
  if (!options.spread) return { ...m, anchor: { c0: c0!, c1: c1! }, spread: { k0: 1, k1: 0 } };
  const ratio = locs.map(({ p, i }) => reference.sd.td[i]! / kernelAt(m.controls.points, m.sd, p));
  const [k0, k1] = leastSquares(design, ratio);
  return { ...m, anchor: { c0: c0!, c1: c1! }, spread: { k0: k0!, k1: k1! } };
}

const nearest = (points: readonly PatternPoint[], p: PatternPoint): number => {
  let best = 0,
    bestD = Infinity;
  points.forEach((q, j) => {
    const d = (q.x - p.x) ** 2 + (q.y - p.y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  });
  return best;
};

/** Per pattern location: the modelled intercept, slope and SD, and the nearest control location. */
function evaluate(m: FullFieldModel, geometry: PatternGeometry) {
  const pts = m.controls.points;
  return geometry.points.map((p) => ({
    intercept: kernelAt(pts, m.intercept, p) + m.anchor.c0 + m.anchor.c1 * ecc(p),
    slope: kernelAt(pts, m.slope, p),
    sd: kernelAt(pts, m.sd, p) * (m.spread.k0 + m.spread.k1 * ecc(p)),
    nn: nearest(pts, p),
  }));
}

/** Control rows at the pattern's locations (step 4 above); `rows` may be other tests than the fitted ones (held out). */
export function controlFieldsAt(
  m: FullFieldModel,
  geometry: PatternGeometry,
  rows: readonly VisualFieldRow[] = m.controls.rows,
): VisualFieldRow[] {
  const at = evaluate(m, geometry);
  const blind = new Set(geometry.blindSpotIndices);
  return rows.map((r) => ({
    ...r,
    sensitivities: at.map((e, i) => {
      if (blind.has(i)) return 0;
      const residual = r.sensitivities[e.nn]! - (m.intercept[e.nn]! + m.slope[e.nn]! * r.age);
      return e.intercept + e.slope * r.age + residual * (e.sd / m.sd[e.nn]!);
    }),
  }));
}

/** GH rank = floor(0.15 n) over the locations used in statistics (visualFields: 7 of 52 on 24-2, 10 of 68 on 10-2). */
export const ghRankFor = (geometry: PatternGeometry): number =>
  Math.floor(0.15 * (geometry.points.length - geometry.blindSpotIndices.length));

export function fullFieldTables(m: FullFieldModel, geometry: PatternGeometry, meta: { version: string; source: string }): NormativeTables {
  return buildAgeLinear(controlFieldsAt(m, geometry), geometry, { ...meta, ghRank: ghRankFor(geometry), pooledLuts: POOLED_LUTS });
}

/** Share of locations flagged in held-out healthy fields, per deviation kind and level. */
export interface Calibration {
  readonly fields: number;
  readonly locations: number;
  readonly td: { readonly p5: number; readonly p1: number };
  readonly pd: { readonly p5: number; readonly p1: number };
}

/**
 * Held-out calibration: eyes split into `folds` groups; each group's tests are judged with tables built from the
 * other groups (fit, anchor, tables), and we count the locations whose TD (PD) probability is below 5 % and 1 %.
 * Nominal shares are 5 % and 1 %.
 */
export function heldOutCalibration(
  controls: ControlSet,
  geometry: PatternGeometry,
  anchor: ((m: FullFieldModel) => FullFieldModel) | null,
  folds = 5,
): Calibration {
  const eyeKey = (r: VisualFieldRow) => `${r.id}\u0000${r.eye}`;
  const eyes = [...new Set(controls.rows.map(eyeKey))].sort();
  const fold = new Map(eyes.map((e, i) => [e, i % folds]));
  const blind = new Set(geometry.blindSpotIndices);
  let fields = 0,
    locations = 0,
    td5 = 0,
    td1 = 0,
    pd5 = 0,
    pd1 = 0;
  for (let f = 0; f < folds; f++) {
    const train = controls.rows.filter((r) => fold.get(eyeKey(r)) !== f);
    const test = controls.rows.filter((r) => fold.get(eyeKey(r)) === f);
    const fitted = fitFullField({ points: controls.points, rows: train });
    const m = anchor ? anchor(fitted) : fitted;
    const tables = fullFieldTables(m, geometry, { version: "held-out", source: "held-out" });
    for (const r of controlFieldsAt(m, geometry, test)) {
      const td = r.sensitivities.map((s, i) => (blind.has(i) ? null : s - (tables.intercept[i]! + tables.slope[i]! * r.age)));
      const pd = patternDeviation(td, generalHeight(td, tables.ghRank));
      const tdp = probabilityMap(tables.tdLut, td),
        pdp = probabilityMap(tables.pdLut, pd);
      fields++;
      for (let i = 0; i < td.length; i++) {
        if (blind.has(i)) continue;
        locations++;
        if (tdp[i]! <= 0.05) td5++;
        if (tdp[i]! <= 0.01) td1++;
        if (pdp[i]! <= 0.05) pd5++;
        if (pdp[i]! <= 0.01) pd1++;
      }
    }
  }
  return { fields, locations, td: { p5: td5 / locations, p1: td1 / locations }, pd: { p5: pd5 / locations, p1: pd1 / locations } };
}
