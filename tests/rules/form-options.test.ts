import { describe, expect, it } from "vitest";
import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { measurementFormOptions } from "../../core/rules/form-options.ts";
import { config, createContext as ctx } from "./fixtures.ts";

describe("what the measurement form renders", () => {
  it("the defaults: G with SORS shows the SORS locations list without 16 and the estimate", () => {
    const o = measurementFormOptions(config(), ctx);
    expect(o.sorsLocations).toEqual([10, 20, 36, 48, 54]);
    expect(o.sizes).toEqual([StimulusSize.III_ADAPTIVE, StimulusSize.III]);
    expect(o.eyes).toEqual([Eye.Right, Eye.Left, Eye.Both]);
    expect(o.tutorialEnabled).toBe(true);
    // G SORS 36 = 217.2 at adaptive (2000) -> 217, + 85 audio guide + 50 gaze tracking
    expect(o.estimatedSeconds).toBe(217 + 85 + 50);
  });
  it("'The SORS locations list shows only for SORS': hidden for SORS screening and others", () => {
    expect(measurementFormOptions(config({ strategy: Strategy.SORS_screening, sorsStage: 16 }), ctx).sorsLocations).toEqual([]);
    expect(measurementFormOptions(config({ strategy: Strategy.DS }), ctx).sorsLocations).toEqual([]);
  });
  it("Esterman: '1LT only (locked)', 'Binocular (eye locked)'", () => {
    const o = measurementFormOptions(
      config({
        pattern: Pattern.Esterman,
        strategy: Strategy.OneLevel,
        eye: Eye.Binocular,
        stimuliSize: StimulusSize.IV,
        stimuliShowtime: 500,
      }),
      { ...ctx, mode: "edit" },
    );
    expect(o).toMatchObject({
      strategies: [Strategy.OneLevel],
      eyes: [Eye.Binocular],
      strategyLocked: true,
      eyeLocked: true,
      showtimes: [500],
    });
  });
});
