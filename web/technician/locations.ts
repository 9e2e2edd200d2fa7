import { getPattern, patternsWithGeometry } from "../../core/analytics/patterns.ts";
import { Strategy } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { RunningTest } from "../../core/model/running-test.ts";

/** How many locations a queued measurement will test: the SORS stage for SORS, 16 for SORS screening, else the pattern's. */
export function totalLocations(m: Pick<Measurement, "pattern" | "strategy" | "sorsStage">): number {
  if (m.strategy === Strategy.SORS) return m.sorsStage;
  if (m.strategy === Strategy.SORS_screening) return 16;
  return patternsWithGeometry.includes(m.pattern) ? getPattern(m.pattern).points.length : 0;
}

/** "A measurement card shows a progress ratio of tested locations over total locations": live when it runs. */
export function progressRatio(m: Measurement, live: RunningTest | null): { tested: number; total: number } {
  if (live && live.perimetryId === m.id) return { tested: live.nTested, total: live.nLocations };
  const total = totalLocations(m);
  return { tested: m.result ? total : 0, total };
}
