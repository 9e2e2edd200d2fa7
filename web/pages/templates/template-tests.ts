import { Eye, TestType } from "../../../core/model/enums.ts";
import type { ExaminationPayload } from "../../../core/model/examination.ts";
import type { MeasurementBody } from "../../../core/model/measurement.ts";
import type { MeasurementConfig } from "../../../core/model/measurement-config.ts";
import type { TemplateFields, TemplateTest } from "../../../core/model/template.ts";
import { defaultMeasurementConfig, examinationConfigOf } from "../../../core/rules/defaults.ts";
import { displayNameFor } from "../../../core/rules/display-name.ts";
import type { ConfigContext, Variant } from "../../../core/rules/form-context.ts";
import { normaliseConfig } from "../../../core/rules/form-dependencies.ts";
import { validateTextInput } from "../../../core/rules/text-input.ts";

// A template test keeps an eye and, for perimetry, an examination config (core/model/template.ts). The page edits the
// perimetry part with the measurement form's fields and rules, so these convert between the two shapes.

/** A template is edited without a patient, in create mode: the rules of a new measurement apply. */
export const templateContext = (variant: Variant): ConfigContext => ({ mode: "create", variant, patientLanguage: null });

/** A new test of the given type: perimetry starts from the core/rules defaults; the others need only an eye. */
export const newTemplateTest = (type: TestType, variant: Variant): TemplateTest =>
  type === TestType.Perimetry
    ? fromMeasurementConfig(normaliseConfig(defaultMeasurementConfig(variant), templateContext(variant)))
    : { type, eye: Eye.Both, config: null };

/** The form config for a perimetry template test (no patient, device, name or notes). */
export const toMeasurementConfig = (test: TemplateTest, variant: Variant): MeasurementConfig => {
  const base = defaultMeasurementConfig(variant);
  const c = test.config;
  return {
    ...base,
    eye: test.eye ?? base.eye,
    ...(c
      ? {
          pattern: c.pattern,
          strategy: c.strategy,
          stimuliUpdate: c.stimuliUpdate,
          stimuliSize: c.stimuliSize,
          stimuliShowtime: c.stimuliShowtime,
          sorsStage: c.sorsStage,
          playSound: c.playSound,
          trackGaze: c.trackGaze,
          audioGuide: c.audioGuide,
        }
      : {}),
  };
};

/** The perimetry template test the form config stands for; sorsLocations and sorsStage are kept equal (model note). */
export const fromMeasurementConfig = (m: MeasurementConfig): TemplateTest => ({
  type: TestType.Perimetry,
  eye: m.eye,
  config: examinationConfigOf(m),
});

export interface ScheduleTarget {
  readonly patient: { readonly id: string; readonly name: string };
  readonly deviceSn: string;
}

/**
 * perimetry/register bodies for the template's perimetry tests, in template order. The display name follows "'Test'
 * plus the patient name" (scheduling seed §5); the tutorial is off (the template does not know the patient's language).
 */
export const perimetryBodies = (tests: readonly TemplateTest[], target: ScheduleTarget, variant: Variant): MeasurementBody[] =>
  tests
    .filter((t) => t.type === TestType.Perimetry)
    .map((t) => {
      const config = normaliseConfig(toMeasurementConfig(t, variant), templateContext(variant));
      return {
        ...config,
        tutorial: false,
        notes: "",
        patientId: target.patient.id,
        deviceSn: target.deviceSn,
        displayName: displayNameFor(target.patient.name),
      };
    });

/**
 * Every test of the template as an examination of one appointment (appointment variant); no eye means both. Perimetry
 * configs are brought into the rules of the variant (a template saved before the organisation switched may not fit).
 */
export const examinationPayloads = (tests: readonly TemplateTest[], target: ScheduleTarget, variant: Variant): ExaminationPayload[] =>
  tests.map((t) => ({
    patientId: target.patient.id,
    type: t.type,
    deviceSn: target.deviceSn,
    eye: t.eye ?? Eye.Both,
    notes: "",
    config:
      t.type === TestType.Perimetry
        ? fromMeasurementConfig(normaliseConfig(toMeasurementConfig(t, variant), templateContext(variant))).config
        : null,
  }));

/** Whether the fields can be saved: a name within the text-input rule and at least one test (the server's checks). */
export const canSaveTemplate = (fields: TemplateFields): boolean =>
  fields.name.trim() !== "" && validateTextInput(fields.name) === undefined && fields.tests.length > 0;
