import { describe, expect, it } from "vitest";
import { Strategy } from "../../core/model/enums.ts";
import {
  defaultSorsLocations,
  showsSorsLocations,
  sorsLocationList,
  sorsScreeningLocations,
  sorsStageFor,
  strategyForSorsStage,
} from "../../core/rules/sors-locations.ts";

describe("SORS locations (scheduling seed §3, §4, §5)", () => {
  it("'The SORS locations list shows only for SORS and excludes 16.'", () => {
    expect(sorsLocationList).toEqual([10, 20, 36, 48, 54]);
    expect(showsSorsLocations(Strategy.SORS)).toBe(true);
    for (const s of [Strategy.SORS_screening, Strategy.DS, Strategy.Normal, Strategy.Supra, Strategy.OneLevel])
      expect(showsSorsLocations(s)).toBe(false);
  });
  it("'SORS screening is SORS with 16 locations.'", () => {
    expect(sorsScreeningLocations).toBe(16);
    expect(sorsStageFor(Strategy.SORS_screening, 48)).toBe(16);
  });
  it("'SORS with 16 locations becomes SORS screening'", () => {
    expect(strategyForSorsStage(Strategy.SORS, 16)).toBe(Strategy.SORS_screening);
    expect(strategyForSorsStage(Strategy.SORS, 20)).toBe(Strategy.SORS);
    expect(strategyForSorsStage(Strategy.DS, 16)).toBe(Strategy.DS);
  });
  it("'choosing SORS with 16 switches to the default of 36'", () => {
    expect(defaultSorsLocations).toBe(36);
    expect(sorsStageFor(Strategy.SORS, 16)).toBe(36);
    expect(sorsStageFor(Strategy.SORS, 54)).toBe(54);
  });
});
