import { Pattern } from "../model/enums.ts";
import { globalIndices } from "./global-indices.ts";
import { DEFAULT_NORMATIVE_VERSION, getNormativeDatabase } from "./normative/registry.ts";
import type { NormativeTables, ProbabilityLevel } from "./normative/tables.ts";
import { getPattern } from "./patterns.ts";
import { generalHeight, patternDeviation, probabilityMap, totalDeviation } from "./pointwise.ts";
import { isoDateToDays, linearRegression, pointwiseRegression, yearsSinceFirst } from "./progression/linear-regression.ts";
import { poplr } from "./progression/poplr.ts";
import { CsvError, parseVisualFieldsCsv, type VisualFieldRow } from "./visualfields-csv.ts";

/**
 * The research entry point behind `npm run --silent analyse -- FILE.csv [--series]` (and `isopter analyse`):
 * visualFields-layout CSV in, JSON out, with the field names and meanings of visualFields 1.0.8.
 * Patterns by location count: 54 = 24-2, 68 = 10-2; normative values: the default version (visualFields' sunyiu tables).
 */
export interface RowOutput {
  id: string; eye: string; date: string;
  td: Array<number | null>; tdp: Array<ProbabilityLevel | null>;
  pd: Array<number | null>; pdp: Array<ProbabilityLevel | null>;
  gh: number; msens: number; ssens: number; tmd: number; tsd: number; pmd: number; psd: number; vfi: number;
}
export interface SeriesOutput {
  id: string; eye: string; nvisits: number;
  glr: { slope: number; intercept: number; se: number; p: number };
  plr: Array<{ slope: number; p: number } | null>;
  poplr: { csl: number; cslp: number; csr: number; csrp: number };
}

export function patternForLocationCount(n: number): Pattern {
  if (n === 54) return Pattern.P24_2;
  if (n === 68) return Pattern.P10_2;
  throw new CsvError(`cannot tell the pattern from ${n} location columns (54 = 24-2, 68 = 10-2)`);
}

function tablesFor(rows: readonly VisualFieldRow[]): { nv: NormativeTables; pattern: Pattern } {
  const n = rows[0]?.sensitivities.length ?? 0;
  const pattern = patternForLocationCount(n);
  const nv = getNormativeDatabase(pattern, DEFAULT_NORMATIVE_VERSION);
  if (!nv) throw new CsvError(`no normative database for pattern ${getPattern(pattern).label}`);
  return { nv, pattern };
}

export function analyseRows(rows: readonly VisualFieldRow[]): RowOutput[] {
  if (rows.length === 0) return [];
  const { nv, pattern } = tablesFor(rows);
  const geometry = getPattern(pattern);
  const blind = new Set(nv.blindSpotIndices);
  return rows.map((r) => {
    const td = totalDeviation(nv, r.sensitivities, r.age);
    const gh = generalHeight(td, nv.ghRank);
    const pd = patternDeviation(td, gh);
    const tdp = probabilityMap(nv.tdLut, td), pdp = probabilityMap(nv.pdLut, pd);
    const g = globalIndices(nv, geometry, r.sensitivities.map((s, i) => (blind.has(i) ? null : s)), td, pd, r.age, { tdp, pdp, gh });
    return {
      id: r.id, eye: r.eye, date: r.date, td, tdp, pd, pdp,
      gh, msens: g.msens, ssens: g.ssens, tmd: g.tmd, tsd: g.tsd, pmd: g.pmd, psd: g.psd, vfi: g.vfi,
    };
  });
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
    groups.set(k, [...(groups.get(k) ?? []), r]);
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
      id: sorted[0]!.id, eye: sorted[0]!.eye, nvisits: sorted.length,
      glr: { slope: g.slope, intercept: g.intercept, se: g.se, p: g.p },
      plr: pointwiseRegression(years, sens).map((r) => (r ? { slope: r.slope, p: r.p } : null)),
      poplr: { csl: p.csl, cslp: p.cslp, csr: p.csr, csrp: p.csrp },
    });
  }
  return out;
}

/** CSV text in, JSON text out (what the CLI prints). Throws CsvError on bad input. */
export function analyseCsvText(csv: string, options: { series?: boolean } = {}): string {
  const rows = parseVisualFieldsCsv(csv);
  return JSON.stringify(options.series ? analyseSeriesRows(rows) : analyseRows(rows)) + "\n";
}
