import type { PatternGeometry } from "../../core/analytics/patterns.ts";
import { Pattern, type SorsLocations, Strategy } from "../../core/model/enums.ts";
import { hillOfVision, normal95 } from "./hill.ts";
import { dynamicStrategy } from "./procedures/dynamic.ts";
import type { Procedure } from "./procedures/procedure.ts";
import { oneLevel, supraThreshold } from "./procedures/screening.ts";
import { normalStrategy } from "./procedures/staircase.ts";
import { type SorsModel, reconstruct } from "./sors.ts";

// Which locations a strategy tests, in what order they become active, and how each one starts.

/** Esterman's single level (analytics.md) and ours for C40: 24 dB, the Humphrey single-intensity screening level. */
export const ESTERMAN_LEVEL_DB = 10;
export const C40_LEVEL_DB = 24;
/** SORS tests this many locations at a time, each started from the reconstruction of those finished so far. */
export const SORS_WINDOW = 4;
/** Normal starts 4 dB brighter than the age-normal level, so the first stimulus is usually seen and the staircase
 * crosses the threshold going dimmer (as from the Humphrey's primary seed points). */
export const NORMAL_START_OFFSET_DB = 4;
/** DS starts 2 dB brighter than the age-normal level (one near-normal step); SORS starts from its reconstruction. */
export const DS_START_OFFSET_DB = 2;

export interface StrategyPlan {
  /** Locations to test, in activation order. */
  readonly locations: readonly number[];
  /** How many are active (interleaved) at once. */
  readonly window: number;
  /** The procedure for a location, given the thresholds finished so far. */
  start(index: number, finished: ReadonlyMap<number, number>): Procedure;
  /** The final field from the finished thresholds (SORS fills in the untested locations). */
  complete(finished: ReadonlyMap<number, number>): number[];
  readonly sors: SorsModel | null;
}

export const sorsCount = (strategy: Strategy, sorsStage: SorsLocations | null | undefined): SorsLocations =>
  strategy === Strategy.SORS_screening ? 16 : (sorsStage ?? 36);

const measuredOnly = (n: number) => (finished: ReadonlyMap<number, number>) => Array.from({ length: n }, (_, i) => finished.get(i) ?? 0);

export const planStrategy = (
  geometry: PatternGeometry,
  strategy: Strategy,
  sorsStage: SorsLocations | null | undefined,
  age: number,
  loadSors: (pattern: Pattern) => SorsModel,
): StrategyPlan => {
  const n = geometry.points.length;
  const all = [...Array(n).keys()];
  const expected = geometry.points.map((p) => hillOfVision(p, age));
  const everyLocation = (start: (i: number) => Procedure): StrategyPlan => ({
    locations: all,
    window: n,
    start,
    complete: measuredOnly(n),
    sors: null,
  });
  switch (strategy) {
    case Strategy.Normal:
      return everyLocation((i) => normalStrategy(expected[i]! - NORMAL_START_OFFSET_DB, expected[i]!));
    case Strategy.DS:
      return everyLocation((i) => dynamicStrategy(expected[i]! - DS_START_OFFSET_DB, expected[i]!));
    case Strategy.Supra:
      return everyLocation((i) => supraThreshold(normal95(geometry.points[i]!, age)));
    case Strategy.OneLevel:
      return everyLocation(() => oneLevel(geometry.pattern === Pattern.Esterman ? ESTERMAN_LEVEL_DB : C40_LEVEL_DB));
    case Strategy.SORS:
    case Strategy.SORS_screening: {
      const model = loadSors(geometry.pattern);
      const k = sorsCount(strategy, sorsStage);
      const chosen = model.stages[String(k)]?.chosen ?? model.order.slice(0, k);
      return {
        locations: chosen,
        window: SORS_WINDOW,
        start: (i, finished) => {
          const predicted = finished.size > 0 ? reconstruct(model, finished)[i]! : expected[i]!;
          return dynamicStrategy(Math.min(predicted, expected[i]! + 2), expected[i]!);
        },
        complete: (finished) => {
          const field = reconstruct(model, finished);
          return field.map((v, i) => finished.get(i) ?? Math.min(40, Math.max(0, v)));
        },
        sors: model,
      };
    }
    default:
      throw new Error(`strategy ${strategy} cannot be run`);
  }
};
