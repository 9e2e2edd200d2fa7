import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Pattern, SorsLocations, StimuliUpdate, Strategy } from "../../core/model/enums.ts";
import { estimatedDurationSeconds } from "../../core/rules/duration.ts";
import { anyPattern, anySors, anyStrategy, anyUpdate } from "./arbitraries.ts";

// Scheduling seed §9 base times, restated here from the seed text (not imported) so the test checks the code.
const P = Pattern,
  S = Strategy;
const seedBase: Record<string, number> = {
  [`${P.P24_2}/${S.Normal}`]: 575,
  [`${P.P24_2}/${S.DS}`]: 329.4,
  [`${P.P24_2}/${S.Supra}`]: 129.6,
  [`${P.P24_2}/${S.SORS}/10`]: 61.8,
  [`${P.P24_2}/${S.SORS}/20`]: 104,
  [`${P.P24_2}/${S.SORS}/36`]: 217.2,
  [`${P.P24_2}/${S.SORS}/48`]: 282.6,
  [`${P.P24_2}/${S.SORS}/54`]: 318,
  [`${P.G}/${S.Normal}`]: 690.6,
  [`${P.G}/${S.DS}`]: 364.2,
  [`${P.G}/${S.Supra}`]: 141.84,
  [`${P.G}/${S.SORS}/10`]: 61.8,
  [`${P.G}/${S.SORS}/20`]: 123.6,
  [`${P.G}/${S.SORS}/36`]: 217.2,
  [`${P.G}/${S.SORS}/48`]: 282.6,
  [`${P.G}/${S.SORS}/54`]: 347.4,
  [`${P.P10_2}/${S.Normal}`]: 802.2,
  [`${P.P10_2}/${S.DS}`]: 463.8,
  [`${P.P10_2}/${S.Supra}`]: 165.6,
  [`${P.P30_2}/${S.Normal}`]: 802.2,
  [`${P.P30_2}/${S.DS}`]: 463.8,
  [`${P.P30_2}/${S.Supra}`]: 180,
  [`${P.S28}/${S.Supra}`]: 64.8,
  [`${P.Esterman}/${S.OneLevel}`]: 340,
};
const baseOf = (pattern: number, strategy: number, sors: number): number | undefined =>
  seedBase[strategy === S.SORS ? `${pattern}/${strategy}/${sors}` : `${pattern}/${strategy}`];

const formula = (base: number, update: number, audio: boolean, gaze: boolean, tutorial: boolean): number =>
  Math.round(base / (2000 / (update === StimuliUpdate.Adaptive ? 2000 : update))) +
  (audio ? 85 : 0) +
  (gaze ? 50 : 0) +
  (tutorial ? 120 : 0);

describe("estimated duration (property, scheduling seed §9)", () => {
  it("equals the formula for every known combination and is absent for every unknown one (exhaustive)", () => {
    let known = 0;
    for (const pattern of Object.values(Pattern))
      for (const strategy of Object.values(Strategy))
        for (const sorsStage of SorsLocations)
          for (const stimuliUpdate of Object.values(StimuliUpdate))
            for (const [audioGuide, trackGaze, tutorial] of [
              [false, false, false],
              [true, false, false],
              [false, true, false],
              [false, false, true],
              [true, true, true],
              [true, true, false],
              [false, true, true],
              [true, false, true],
            ] as const) {
              const got = estimatedDurationSeconds({ pattern, strategy, sorsStage, stimuliUpdate, audioGuide, trackGaze, tutorial });
              const base = baseOf(pattern, strategy, sorsStage);
              if (base === undefined) expect(got).toBeUndefined();
              else {
                known++;
                expect(got).toBe(formula(base, stimuliUpdate, audioGuide, trackGaze, tutorial));
              }
            }
    // 14 non-SORS pairs x 6 counts + 10 SORS pairs, each x 6 updates x 8 flag sets
    expect(known).toBe((14 * 6 + 10) * 6 * 8);
  });

  it("is monotone in the stimuli update and adds exactly the flag seconds (random)", () => {
    fc.assert(
      fc.property(
        anyPattern,
        anyStrategy,
        anySors,
        anyUpdate,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (pattern, strategy, sorsStage, stimuliUpdate, a, g, t) => {
          const bare = estimatedDurationSeconds({
            pattern,
            strategy,
            sorsStage,
            stimuliUpdate,
            audioGuide: false,
            trackGaze: false,
            tutorial: false,
          });
          const full = estimatedDurationSeconds({ pattern, strategy, sorsStage, stimuliUpdate, audioGuide: a, trackGaze: g, tutorial: t });
          if (bare === undefined) expect(full).toBeUndefined();
          else expect(full! - bare).toBe((a ? 85 : 0) + (g ? 50 : 0) + (t ? 120 : 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});
