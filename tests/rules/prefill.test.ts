import { describe, expect, it } from "vitest";
import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { defaultMeasurementConfig } from "../../core/rules/defaults.ts";
import { lastMeasurement, openMeasurementForm, prefillConfig, type PastMeasurement } from "../../core/rules/prefill.ts";
import { displayNameFor } from "../../core/rules/display-name.ts";
import { createContext } from "./fixtures.ts";

const past = (over: Partial<PastMeasurement>): PastMeasurement => {
  const { patientId: _p, deviceSn: _d, displayName: _n, notes: _o, ...settings } = defaultMeasurementConfig("older");
  return { ...settings, createdAt: "2026-01-01T00:00:00Z", result: null, ...over };
};

describe("prefill from the patient's last measurement (scheduling seed §4)", () => {
  it("'New forms are prefilled from the patient's last measurement (latest result takenAt, else createdAt)'", () => {
    const a = past({ createdAt: "2026-03-01T00:00:00Z", result: { takenAt: "2026-03-02T00:00:00Z" } });
    const b = past({ createdAt: "2026-03-05T00:00:00Z", result: null }); // no result: its createdAt counts
    const c = past({ createdAt: "2026-01-01T00:00:00Z", result: { takenAt: "2026-03-04T00:00:00Z" } });
    expect(lastMeasurement([a, b, c])).toBe(b);
    expect(lastMeasurement([a, c])).toBe(c); // c was created earlier but its result is later
    expect(lastMeasurement([])).toBeUndefined();
  });
  it("takes the last measurement's test settings, not its notes or device", () => {
    const last = past({
      pattern: Pattern.P30_2,
      strategy: Strategy.Normal,
      stimuliSize: StimulusSize.V,
      eye: Eye.Left,
      stimuliShowtime: 100,
      stimuliUpdate: 1500,
      playSound: true,
    });
    const config = prefillConfig("older", [past({}), { ...last, createdAt: "2026-06-01T00:00:00Z" }], createContext);
    expect(config).toMatchObject({
      pattern: Pattern.P30_2,
      strategy: Strategy.Normal,
      stimuliSize: StimulusSize.V,
      eye: Eye.Left,
      stimuliShowtime: 100,
      stimuliUpdate: 1500,
      playSound: true,
      notes: "",
      deviceSn: null,
    });
  });
  it("'else defaults'", () => {
    expect(prefillConfig("newer", [], { ...createContext, variant: "newer" })).toEqual(defaultMeasurementConfig("newer"));
  });
  it("a prefill is brought into the rules: SORS with 16 becomes SORS screening, 'Both' leaves in stand-alone mode", () => {
    const config = prefillConfig("older", [past({ strategy: Strategy.SORS, sorsStage: 16, eye: Eye.Both })], {
      ...createContext,
      mode: "standalone",
    });
    expect(config).toMatchObject({ strategy: Strategy.SORS_screening, sorsStage: 16, eye: Eye.Right });
  });
});

describe("opening the form (modes create, edit, clone, stand-alone)", () => {
  const patient = { id: "p9", name: " Jan Novák ", lang: "en" as const };
  it("create: prefill plus 'Display name defaults to 'Test' plus the patient name upon patient selection.'", () => {
    const { config, context } = openMeasurementForm({ mode: "create", variant: "older", patient, measurements: [] });
    expect(config).toMatchObject({ patientId: "p9", displayName: "Test Jan Novák", eye: Eye.Both });
    expect(context).toEqual({ mode: "create", variant: "older", patientLanguage: "en" });
  });
  it("edit and clone start from the source measurement without 'Both'", () => {
    const source = { ...defaultMeasurementConfig("older"), patientId: "p9", displayName: "Kept", notes: "n" };
    for (const mode of ["edit", "clone"] as const) {
      const { config } = openMeasurementForm({ mode, variant: "older", patient, source });
      expect(config).toMatchObject({ displayName: "Kept", notes: "n", eye: Eye.Right });
    }
  });
  it("without a patient the form opens with no patient and no display name", () => {
    const { config, context } = openMeasurementForm({ mode: "standalone", variant: "newer" });
    expect(config.patientId).toBeNull();
    expect(config.displayName).toBe("");
    expect(context.patientLanguage).toBeNull();
  });
});

describe("display name (scheduling seed §5)", () => {
  it("'Display name defaults to 'Test' plus the patient name'", () => {
    expect(displayNameFor("Maria Silva")).toBe("Test Maria Silva");
    expect(displayNameFor("  Zoë ")).toBe("Test Zoë");
    expect(displayNameFor("")).toBe("Test");
  });
});
