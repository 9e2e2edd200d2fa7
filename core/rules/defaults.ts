import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../model/enums.ts";
import type { ExaminationConfig } from "../model/examination.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { Variant } from "./form-context.ts";

/**
 * "Defaults for a new measurement: eye both, pattern G, strategy SORS, stimuli update adaptive (2000 in the newer
 * variant), size III adaptive (III in the newer variant), showtime 200, SORS locations 36, sound off, gaze tracking
 * on, audio guide on, tutorial off." (scheduling seed §9). No patient, device, display name or notes yet.
 */
export const defaultMeasurementConfig = (variant: Variant): MeasurementConfig => ({
  patientId: null,
  deviceSn: null,
  displayName: "",
  eye: Eye.Both,
  pattern: Pattern.G,
  strategy: Strategy.SORS,
  stimuliUpdate: variant === "newer" ? StimuliUpdate.Ms2000 : StimuliUpdate.Adaptive,
  stimuliSize: variant === "newer" ? StimulusSize.III : StimulusSize.III_ADAPTIVE,
  stimuliShowtime: Showtime.Ms200,
  sorsStage: 36,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
  notes: "",
});

/** A new measurement's settings: the form's defaults for `variant` with the choices made (patient, device, eye, ...). */
export const measurementConfigWith = <C extends Partial<MeasurementConfig>>(
  choices: C,
  variant: Variant = "newer",
): MeasurementConfig & C => ({
  ...defaultMeasurementConfig(variant),
  ...choices,
});

/**
 * The perimetry configuration of an examination (appointment variant, templates) from the measurement form's settings.
 * The examination carries the SORS location count twice, as sorsLocations (the form's name) and sorsStage (the
 * device's); they are kept equal.
 */
export const examinationConfigOf = (m: MeasurementConfig): ExaminationConfig => ({
  pattern: m.pattern,
  strategy: m.strategy,
  stimuliUpdate: m.stimuliUpdate,
  stimuliSize: m.stimuliSize,
  stimuliShowtime: m.stimuliShowtime,
  sorsLocations: m.sorsStage,
  sorsStage: m.sorsStage,
  playSound: m.playSound,
  trackGaze: m.trackGaze,
  audioGuide: m.audioGuide,
});
