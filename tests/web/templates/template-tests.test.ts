import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy, StimulusSize, TestType } from "../../../core/model/enums.ts";
import {
  canSaveTemplate,
  examinationPayloads,
  fromMeasurementConfig,
  newTemplateTest,
  perimetryBodies,
  toMeasurementConfig,
} from "../../../web/pages/templates/template-tests.ts";

const target = { patient: { id: "p1", name: "Ada Lovelace" }, deviceSn: "SN1" };

describe("template tests and what scheduling sends", () => {
  it("a new perimetry test starts from 'Defaults for a new measurement: eye both, pattern G, strategy SORS ... SORS locations 36' (scheduling seed §9)", () => {
    const test = newTemplateTest(TestType.Perimetry, "older");
    expect(test).toMatchObject({ type: "perimetry", eye: Eye.Both });
    expect(test.config).toMatchObject({
      pattern: Pattern.G,
      strategy: Strategy.SORS,
      sorsLocations: 36,
      sorsStage: 36,
      trackGaze: true,
      audioGuide: true,
    });
    expect(newTemplateTest(TestType.Amsler, "older")).toEqual({ type: "amsler", eye: Eye.Both, config: null });
  });

  it("round-trips a perimetry test through the form config", () => {
    const test = newTemplateTest(TestType.Perimetry, "newer");
    expect(fromMeasurementConfig(toMeasurementConfig(test, "newer"))).toEqual(test);
  });

  it("registers only perimetry tests, named 'Test' plus the patient name (scheduling seed §5), tutorial off", () => {
    const tests = [newTemplateTest(TestType.Amsler, "older"), { ...newTemplateTest(TestType.Perimetry, "older"), eye: Eye.Left }];
    const bodies = perimetryBodies(tests, target, "older");
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      patientId: "p1",
      deviceSn: "SN1",
      displayName: "Test Ada Lovelace",
      eye: Eye.Left,
      tutorial: false,
      notes: "",
    });
    // "Choosing strategy SORS ... forces size III adaptive" still holds after normalising in the measurement variant.
    expect(bodies[0]!.stimuliSize).toBe(StimulusSize.III_ADAPTIVE);
  });

  it("an appointment carries every test; tests without an eye go to both eyes", () => {
    const payloads = examinationPayloads(
      [{ type: TestType.Acuity, eye: null, config: null }, newTemplateTest(TestType.Perimetry, "newer")],
      target,
      "newer",
    );
    expect(payloads.map((p) => [p.type, p.eye, p.config === null])).toEqual([
      ["acuity", Eye.Both, true],
      ["perimetry", Eye.Both, false],
    ]);
  });

  it("saves only a name under the text-input rule and at least one test", () => {
    const tests = [newTemplateTest(TestType.Acuity, "older")];
    expect(canSaveTemplate({ name: "Follow-up, left_side 2", tests })).toBe(true);
    expect(canSaveTemplate({ name: "  ", tests })).toBe(false);
    expect(canSaveTemplate({ name: "A/B", tests })).toBe(false);
    expect(canSaveTemplate({ name: "Ok", tests: [] })).toBe(false);
  });
});
