import { describe, expect, it } from "vitest";
import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { applyConfigChange } from "../../core/rules/config-reducer.ts";
import { isConfigAllowed } from "../../core/rules/allowed-config.ts";
import { normaliseConfig, onPatientSelected } from "../../core/rules/form-dependencies.ts";
import { config, createContext as ctx } from "./fixtures.ts";

const set = applyConfigChange;

describe("form dependencies (scheduling seed §4)", () => {
  describe("'Changing the pattern keeps the SORS location count if valid, else resets to 36; keeps eye, strategy, showtime, size if valid, else takes the first valid option.'", () => {
    it("keeps what the new pattern allows", () => {
      const from = config({
        pattern: Pattern.G,
        strategy: Strategy.SORS,
        sorsStage: 48,
        eye: Eye.Left,
        stimuliShowtime: 100,
        stimuliSize: StimulusSize.III,
      });
      expect(set(from, { field: "pattern", value: Pattern.P24_2 }, ctx)).toEqual({ ...from, pattern: Pattern.P24_2 });
    });
    it("takes the first valid option for what it does not allow", () => {
      const from = config({ pattern: Pattern.G, strategy: Strategy.SORS, eye: Eye.Left, stimuliShowtime: 100 });
      const to = set(from, { field: "pattern", value: Pattern.Esterman }, ctx);
      expect(to).toMatchObject({
        pattern: Pattern.Esterman,
        strategy: Strategy.OneLevel,
        stimuliSize: StimulusSize.IV,
        eye: Eye.Binocular,
        stimuliShowtime: 500,
      });
      const back = set(to, { field: "pattern", value: Pattern.P30_2 }, ctx);
      expect(back).toMatchObject({ strategy: Strategy.DS, stimuliSize: StimulusSize.IV, eye: Eye.Right, stimuliShowtime: 200 });
    });
    it("SORS screening (16) on a pattern without SORS resets the count to 36", () => {
      const from = config({ pattern: Pattern.G, strategy: Strategy.SORS_screening, sorsStage: 16 });
      expect(set(from, { field: "pattern", value: Pattern.P10_2 }, ctx)).toMatchObject({ strategy: Strategy.DS, sorsStage: 36 });
      expect(set(from, { field: "pattern", value: Pattern.P24_2 }, ctx)).toMatchObject({
        strategy: Strategy.SORS_screening,
        sorsStage: 16,
      });
    });
    it("a listed count survives a pattern without SORS", () => {
      const from = config({ pattern: Pattern.G, strategy: Strategy.SORS, sorsStage: 20 });
      expect(set(from, { field: "pattern", value: Pattern.S28 }, ctx)).toMatchObject({
        strategy: Strategy.Supra,
        stimuliSize: StimulusSize.III,
        sorsStage: 20,
      });
    });
    it("the Undefined pattern is refused", () => {
      const from = config();
      expect(set(from, { field: "pattern", value: Pattern.Undefined }, ctx)).toBe(from);
    });
  });

  describe("'Choosing strategy SORS or SORS screening forces size III adaptive.'", () => {
    it.each([Strategy.SORS, Strategy.SORS_screening])("strategy %s", (strategy) => {
      const from = config({ strategy: Strategy.Normal, stimuliSize: StimulusSize.V });
      expect(set(from, { field: "strategy", value: strategy }, ctx).stimuliSize).toBe(StimulusSize.III_ADAPTIVE);
    });
    it("another strategy keeps a valid size, else takes the first valid one", () => {
      expect(
        set(config({ strategy: Strategy.Normal, stimuliSize: StimulusSize.V }), { field: "strategy", value: Strategy.DS }, ctx).stimuliSize,
      ).toBe(StimulusSize.V);
      expect(
        set(config({ strategy: Strategy.Normal, stimuliSize: StimulusSize.V }), { field: "strategy", value: Strategy.Supra }, ctx)
          .stimuliSize,
      ).toBe(StimulusSize.III);
    });
    it("a strategy the pattern does not allow is refused", () => {
      const from = config({ pattern: Pattern.P10_2, strategy: Strategy.DS, stimuliSize: StimulusSize.I });
      expect(set(from, { field: "strategy", value: Strategy.SORS }, ctx)).toBe(from);
    });
  });

  describe("'SORS with 16 locations becomes SORS screening; choosing SORS with 16 switches to the default of 36.'", () => {
    it("choosing SORS screening sets 16 locations; choosing SORS afterwards switches to 36", () => {
      const screening = set(config({ strategy: Strategy.SORS, sorsStage: 48 }), { field: "strategy", value: Strategy.SORS_screening }, ctx);
      expect(screening).toMatchObject({ strategy: Strategy.SORS_screening, sorsStage: 16 });
      expect(set(screening, { field: "strategy", value: Strategy.SORS }, ctx)).toMatchObject({ strategy: Strategy.SORS, sorsStage: 36 });
    });
    it("16 locations arriving for SORS make it SORS screening", () => {
      expect(set(config({ strategy: Strategy.SORS, stimuliSize: StimulusSize.III }), { field: "sorsStage", value: 16 }, ctx)).toMatchObject(
        {
          strategy: Strategy.SORS_screening,
          sorsStage: 16,
          stimuliSize: StimulusSize.III_ADAPTIVE,
        },
      );
    });
    it("a stored measurement with SORS and 16 is prefilled as SORS screening", () => {
      expect(normaliseConfig(config({ strategy: Strategy.SORS, sorsStage: 16 }), ctx)).toMatchObject({
        strategy: Strategy.SORS_screening,
        sorsStage: 16,
      });
    });
    it("a listed count is taken for SORS", () => {
      expect(set(config({ strategy: Strategy.SORS }), { field: "sorsStage", value: 54 }, ctx).sorsStage).toBe(54);
    });
  });

  describe("'Turning audio guide off turns the tutorial off.'", () => {
    it("audio guide off -> tutorial off", () => {
      const on = set(config({ audioGuide: true }), { field: "tutorial", value: true }, ctx);
      expect(on.tutorial).toBe(true);
      expect(set(on, { field: "audioGuide", value: false }, ctx)).toMatchObject({ audioGuide: false, tutorial: false });
    });
    it("the tutorial cannot be turned on while the audio guide is off", () => {
      const off = config({ audioGuide: false });
      expect(set(off, { field: "tutorial", value: true }, ctx)).toEqual(off);
    });
    it("in the newer variant gaze tracking off turns the tutorial off too", () => {
      const newer = { ...ctx, variant: "newer" as const };
      const on = set(config(), { field: "tutorial", value: true }, newer);
      expect(on.tutorial).toBe(true);
      expect(set(on, { field: "trackGaze", value: false }, newer).tutorial).toBe(false);
      expect(set(on, { field: "trackGaze", value: false }, ctx).tutorial).toBe(true);
    });
  });

  it("'Display name defaults to 'Test' plus the patient name upon patient selection.' and the language rules the tutorial", () => {
    const on = set(config(), { field: "tutorial", value: true }, ctx);
    const picked = onPatientSelected(on, { id: "p1", name: "Ana Lima", lang: "bp" }, ctx);
    expect(picked.config).toMatchObject({ patientId: "p1", displayName: "Test Ana Lima", tutorial: false });
    expect(picked.context.patientLanguage).toBe("bp");
    expect(isConfigAllowed(picked.config, picked.context)).toBe(true);
  });

  it("'Both eyes' can be chosen when creating and not when editing", () => {
    const from = config({ eye: Eye.Left });
    expect(set(from, { field: "eye", value: Eye.Both }, ctx).eye).toBe(Eye.Both);
    expect(set(from, { field: "eye", value: Eye.Both }, { ...ctx, mode: "edit" }).eye).toBe(Eye.Left);
  });

  it("'Notes: at most 256 characters.': longer notes are cut to 256", () => {
    expect(set(config(), { field: "notes", value: "x".repeat(300) }, ctx).notes).toHaveLength(256);
  });
});
