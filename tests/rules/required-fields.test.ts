import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { canSaveMeasurement, missingMeasurementFields, validateMeasurementConfig } from "../../core/rules/required-fields.ts";
import { config, createContext as ctx } from "./fixtures.ts";

const required = { key: "required", text: "This field is required." };

describe("required fields (scheduling seed §5)", () => {
  it("'Patient, eye, pattern, strategy, update, size and showtime are required'", () => {
    expect(missingMeasurementFields({})).toEqual({
      patientId: required,
      eye: required,
      pattern: required,
      strategy: required,
      stimuliUpdate: required,
      stimuliSize: required,
      stimuliShowtime: required,
    });
    expect(missingMeasurementFields({ ...config(), patientId: "p" })).toEqual({});
    expect(missingMeasurementFields({ ...config(), patientId: "p", pattern: Pattern.Undefined, strategy: Strategy.Undefined })).toEqual({
      pattern: required,
      strategy: required,
    });
  });
  it("'save is disabled without a patient'", () => {
    expect(canSaveMeasurement(config({ patientId: null }), ctx)).toBe(false);
    expect(canSaveMeasurement(config({ patientId: "p1" }), ctx)).toBe(true);
  });
  it("the display name follows the text rule, and a refused option blocks saving", () => {
    expect(validateMeasurementConfig(config({ patientId: "p", displayName: "Test O'Neil" }), ctx)).toEqual({
      displayName: { key: "specialCharacters", text: "Special characters are not allowed." },
    });
    expect(validateMeasurementConfig(config({ patientId: "p", eye: Eye.Both }), { ...ctx, mode: "edit" })).toHaveProperty(
      "eye.key",
      "optionNotAllowed",
    );
    expect(canSaveMeasurement(config({ patientId: "p", notes: "x".repeat(257) }), ctx)).toBe(false);
  });
});
