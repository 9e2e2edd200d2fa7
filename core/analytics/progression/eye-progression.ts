import type { Eye, Pattern, Strategy } from "../../model/enums.ts";
import { getNormativeDatabase } from "../normative/registry.ts";
import { analyseSeries } from "../series-analysis.ts";
import { resultStrategy, seriesChanges, type SeriesChange, type SourcedResult } from "../series-sources.ts";
import { criteriaNotApplicable, criteriaOfAnalysis, seriesRefusal, type SeriesCriteria } from "./criteria/index.ts";
import type { EventStatus } from "./events.ts";
import { slopeRefusal, type MdSlope } from "./md-slope.ts";

/**
 * The progression analysis of one eye on one pattern (issue 20), what Humphrey's Guided Progression Analysis and
 * FORUM show beside the MD chart, from core's own series analysis (series-analysis.ts):
 * - GPA-style events against the baseline pair (the eye's baseline and the next result, else the first two):
 *   locations whose PD fell below the baseline beyond the 5 % test-retest limit on the last result, on 2 and on 3
 *   consecutive results; "possible" and "likely progression" when 3 or more locations repeat (events.ts);
 * - PoPLR: the combined p-value of deterioration of TD over time, with the map of per-location TD slopes (PLR);
 * - the VFI trend: its rate per year and one-sided p.
 * A mixed series is analysed per pattern and eye; every other result is set aside with the reason. Devices and
 * strategies pool (issue 29: a clinic's imported Humphrey history continues on Isopter's headsets), but never silently:
 * `changes` names each analysed result whose device or strategy differs from the one before it (series-sources.ts),
 * which the page marks on its chart and lists beside it, and the print states; a reader who wants one device or one
 * strategy limits the series before it comes here (series-sources.ts limitSeries). The trends (PoPLR, VFI rate) follow
 * the MD slope's rule (at least 3 results over at least 6 months); events need 3 results.
 * `criteria` (issue 30) runs every published criterion on the same analysed results (criteria/index.ts) and reads
 * them as one; each method says "not applicable" and why where the kept results do not suffice.
 */
export interface SeriesResult extends SourcedResult {
  readonly id: string;
  readonly takenAt: string;
  readonly eye: Eye;
  readonly pattern: Pattern;
  /** Age in completed years on the test day. */
  readonly age: number;
  readonly thresholds: ReadonlyArray<number | null>;
  readonly normativeVersion: string | null;
  /** A complete threshold result (not a screening, every location measured). */
  readonly valid: boolean;
  readonly unreliable: boolean;
  /** The threshold strategy; results without one (older callers) read as Undefined. */
  readonly strategy?: Strategy | null;
}

/** A change of device or strategy in the analysed series, at the result `id` (the first after the change). */
export type SeriesSourceChange = { readonly id: string; readonly takenAt: string } & Omit<SeriesChange<unknown>, "result" | "index">;

export type SetAsideReason = "other-eye-or-pattern" | "not-threshold" | "unreliable" | "no-normative-database" | "before-baseline";

export interface EyeProgression {
  readonly eye: Eye;
  readonly pattern: Pattern;
  /** The one threshold strategy of the analysed results; null when they name none, or several (see `changes`). */
  readonly strategy: Strategy | null;
  /** The analysed results' ids, oldest first. */
  readonly used: string[];
  /** Where the device or the strategy changes among the analysed results, oldest first (empty: one device, one strategy). */
  readonly changes: SeriesSourceChange[];
  readonly setAside: Array<{ readonly id: string; readonly reason: SetAsideReason }>;
  readonly events: {
    readonly baseline: readonly [string, string];
    readonly status: EventStatus;
    /** Location indices deteriorated on the last result; on it and the one before; on it and the two before. */
    readonly once: number[];
    readonly twice: number[];
    readonly thrice: number[];
  } | null;
  /** Why there are no trends (PoPLR, VFI rate), if so. */
  readonly noTrend: MdSlope["noSlope"];
  readonly poplr: { readonly p: number; readonly slopes: Array<number | null>; readonly slopeP: Array<number | null> } | null;
  readonly vfi: { readonly ratePerYear: number; readonly p: number } | null;
  /** Every series criterion and the eye's reading, from the analysed results; null when no result is kept. */
  readonly criteria: SeriesCriteria | null;
}

export interface EyeProgressionOptions {
  readonly eye: Eye;
  readonly pattern: Pattern;
  readonly baselineId?: string | null;
  /** PoPLR permutations above 7 results (default 5040, as visualFields). */
  readonly nperm?: number;
}

export function eyeProgression(results: readonly SeriesResult[], options: EyeProgressionOptions): EyeProgression {
  const setAside: Array<{ id: string; reason: SetAsideReason }> = [];
  const sorted = [...results].sort((a, b) => Date.parse(a.takenAt) - Date.parse(b.takenAt));
  const latest = sorted.filter((r) => r.eye === options.eye && r.pattern === options.pattern && r.valid).at(-1);
  const version = latest?.normativeVersion ?? null;
  const baseline = sorted.find((r) => r.id === options.baselineId && r.eye === options.eye && r.pattern === options.pattern);
  const kept = sorted.filter((r) => {
    const reason: SetAsideReason | null =
      r.eye !== options.eye || r.pattern !== options.pattern
        ? "other-eye-or-pattern"
        : !r.valid
          ? "not-threshold"
          : r.unreliable
            ? "unreliable"
            : !getNormativeDatabase(r.pattern, r.normativeVersion)
              ? "no-normative-database"
              : baseline && Date.parse(r.takenAt) < Date.parse(baseline.takenAt)
                ? "before-baseline"
                : null;
    if (reason) setAside.push({ id: r.id, reason });
    return reason === null;
  });
  const changes = seriesChanges(kept).map((c) => ({
    id: c.result.id,
    takenAt: c.result.takenAt,
    device: c.device,
    strategy: c.strategy,
    from: c.from,
    to: c.to,
  }));
  const strategies = new Set(kept.map((r) => resultStrategy(r).key));
  const only = kept[0]?.strategy ?? null;
  const none = {
    eye: options.eye,
    pattern: options.pattern,
    strategy: strategies.size === 1 && only !== null && resultStrategy(kept[0]!).name === null ? only : null,
    used: kept.map((r) => r.id),
    changes,
    setAside,
    events: null,
    poplr: null,
    vfi: null,
  };
  const noTrend = slopeRefusal(kept.map((r) => r.takenAt));
  const visits = kept.map((r) => ({ date: r.takenAt, age: r.age, thresholds: r.thresholds }));
  const refusal = seriesRefusal(options.pattern, visits);
  const nv = getNormativeDatabase(options.pattern, version);
  if (refusal || !nv)
    return {
      ...none,
      noTrend: noTrend ?? "too-few-results",
      criteria: kept.length === 0 ? null : criteriaNotApplicable(refusal ?? "no-normative-database"),
    };
  // PoPLR on TD only (the page reads no other), and whatever the trend rule: the criteria read it from 5 results.
  const series = analyseSeries(options.pattern, visits, {
    normativeVersion: version,
    poplrOn: ["td"],
    ...(options.nperm !== undefined && { nperm: options.nperm }),
  });
  const ev = series.events!;
  const last = (m: number[][]) => [...(m.at(-1) ?? [])];
  const td = series.plr.td!;
  return {
    ...none,
    events: {
      baseline: [kept[0]!.id, kept[1]!.id],
      status: ev.current,
      once: last(ev.flagged),
      twice: last(ev.repeated2),
      thrice: last(ev.repeated3),
    },
    noTrend,
    poplr:
      noTrend === null && series.poplr?.td
        ? { p: series.poplr.td.cslp, slopes: td.map((r) => r?.slope ?? null), slopeP: td.map((r) => r?.p ?? null) }
        : null,
    vfi: noTrend === null && series.glr ? { ratePerYear: series.glr.vfi.slope, p: series.glr.vfi.p } : null,
    criteria: criteriaOfAnalysis(options.pattern, nv, series),
  };
}
