import type { Pattern } from "../model/enums.ts";
import { globalIndices, type GlobalIndices } from "./global-indices.ts";
import { getNormativeDatabase } from "./normative/registry.ts";
import type { LocationVector, ProbabilityLevel } from "./normative/tables.ts";
import { getPattern } from "./patterns.ts";
import { generalHeight, patternDeviation, probabilityMap, totalDeviation } from "./pointwise.ts";
import { eventAnalysis, type EventAnalysis } from "./progression/events.ts";
import { isoDateToDays, linearRegression, pointwiseRegression, yearsSinceFirst, type Regression } from "./progression/linear-regression.ts";
import { poplr, type PoplrResult } from "./progression/poplr.ts";

export interface SeriesVisit {
  /** ISO date (yyyy-mm-dd...) of the test. */
  readonly date: string;
  readonly age: number;
  /** Sensitivities in pattern order. */
  readonly thresholds: ReadonlyArray<number | null>;
}

export interface SeriesOptions {
  readonly normativeVersion?: string | null;
  /** PoPLR permutations above 7 visits (default 5040) and their seed (default 1, as the reference). */
  readonly nperm?: number;
  readonly seed?: number;
  /** Skip PoPLR (e.g. when only slopes are needed on a busy screen). */
  readonly poplr?: boolean;
  /** On which values PoPLR runs (default all three); its permutations are most of a series' time. */
  readonly poplrOn?: ReadonlyArray<Kind>;
}

type Kind = "s" | "td" | "pd";
export interface SeriesAnalysis {
  readonly nvisits: number;
  readonly dates: string[];
  readonly years: number[];
  /** Global linear regression on each visualFields global index (null without a normative database). */
  readonly glr: Record<"msens" | "tmd" | "gh" | "vfi", Regression> | null;
  /** Pointwise linear regression (null at blind spots); td and pd need a normative database. */
  readonly plr: { s: Array<Regression | null>; td: Array<Regression | null> | null; pd: Array<Regression | null> | null };
  readonly poplr: Record<Kind, PoplrResult | null> | null;
  /** GPA-style events (needs a normative database). */
  readonly events: EventAnalysis | null;
  /** Per visit in date order, what the series criteria read again (null without a normative database). */
  readonly visits: {
    readonly td: LocationVector[];
    readonly tdp: Array<ReadonlyArray<ProbabilityLevel | null>>;
    readonly global: GlobalIndices[];
  } | null;
}

/**
 * Series analysis of one eye (visits of one pattern; sorted here by date), as visualFields' glr / plr / poplr.
 * Needs at least 3 visits.
 */
export function analyseSeries(pattern: Pattern, visits: readonly SeriesVisit[], options: SeriesOptions = {}): SeriesAnalysis {
  if (visits.length < 3) throw new Error(`series analysis needs at least 3 visits, got ${visits.length}`);
  const geometry = getPattern(pattern);
  const sorted = [...visits].sort((a, b) => isoDateToDays(a.date) - isoDateToDays(b.date));
  const years = yearsSinceFirst(sorted.map((v) => isoDateToDays(v.date)));
  const blind = new Set(geometry.blindSpotIndices);
  const s: LocationVector[] = sorted.map((v) => v.thresholds.map((t, i) => (blind.has(i) ? null : t)));
  const nv = getNormativeDatabase(pattern, options.normativeVersion);

  let td: LocationVector[] | null = null,
    pd: LocationVector[] | null = null,
    tdp: Array<ReadonlyArray<ProbabilityLevel | null>> | null = null,
    gl: GlobalIndices[] | null = null;
  if (nv) {
    td = sorted.map((v) => totalDeviation(nv, v.thresholds, v.age));
    pd = td.map((t) => patternDeviation(t, generalHeight(t, nv.ghRank)));
    tdp = td.map((t) => probabilityMap(nv.tdLut, t));
    gl = sorted.map((v, k) =>
      globalIndices(nv, geometry, s[k]!, td![k]!, pd![k]!, v.age, {
        tdp: tdp![k]!,
        pdp: probabilityMap(nv.pdLut, pd![k]!),
      }),
    );
  }
  const on = new Set(options.poplrOn ?? ["s", "td", "pd"]);
  const pop = (kind: Kind, m: LocationVector[] | null) =>
    m && on.has(kind) ? poplr(years, m, { ...(options.nperm !== undefined && { nperm: options.nperm }), seed: options.seed ?? 1 }) : null;
  return {
    nvisits: sorted.length,
    dates: sorted.map((v) => v.date),
    years,
    glr: gl
      ? {
          msens: linearRegression(
            years,
            gl.map((g) => g.msens),
          ),
          tmd: linearRegression(
            years,
            gl.map((g) => g.tmd),
          ),
          gh: linearRegression(
            years,
            gl.map((g) => g.gh),
          ),
          vfi: linearRegression(
            years,
            gl.map((g) => g.vfi),
          ),
        }
      : null,
    plr: {
      s: pointwiseRegression(years, s),
      td: td ? pointwiseRegression(years, td) : null,
      pd: pd ? pointwiseRegression(years, pd) : null,
    },
    poplr: options.poplr === false ? null : { s: pop("s", s), td: pop("td", td), pd: pop("pd", pd) },
    events: pd ? eventAnalysis(sorted.map((_, k) => ({ sensitivities: s[k]!, pd: pd![k]! }))) : null,
    visits: td && tdp && gl ? { td, tdp, global: gl } : null,
  };
}
