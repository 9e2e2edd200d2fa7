import { describe, expect, it } from "vitest";
import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { defaultMeasurementConfig } from "../../core/rules/defaults.ts";
import { isConfigAllowed } from "../../core/rules/allowed-config.ts";

// "Defaults for a new measurement: eye both, pattern G, strategy SORS, stimuli update adaptive (2000 in the newer
//  variant), size III adaptive (III in the newer variant), showtime 200, SORS locations 36, sound off, gaze tracking
//  on, audio guide on, tutorial off." (scheduling seed §9)
describe("defaults of a new measurement (scheduling seed §9)", () => {
  const shared = {
    eye: Eye.Both,
    pattern: Pattern.G,
    strategy: Strategy.SORS,
    stimuliShowtime: 200,
    sorsStage: 36,
    playSound: false,
    trackGaze: true,
    audioGuide: true,
    tutorial: false,
  };
  it("older variant: update adaptive, size III adaptive", () => {
    expect(defaultMeasurementConfig("older")).toMatchObject({ ...shared, stimuliUpdate: 9999, stimuliSize: StimulusSize.III_ADAPTIVE });
  });
  it("newer variant: '2000 in the newer variant', 'III in the newer variant'", () => {
    expect(defaultMeasurementConfig("newer")).toMatchObject({ ...shared, stimuliUpdate: 2000, stimuliSize: StimulusSize.III });
  });
  it("the defaults are allowed by the table when creating", () => {
    for (const variant of ["older", "newer"] as const)
      expect(isConfigAllowed(defaultMeasurementConfig(variant), { mode: "create", variant, patientLanguage: null })).toBe(true);
  });
});
