import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { ConfigContext } from "./form-context.ts";
import {
  onAudioGuideChange,
  onEyeChange,
  onNotesChange,
  onPatternChange,
  onShowtimeChange,
  onSizeChange,
  onSorsStageChange,
  onStrategyChange,
  onTrackGazeChange,
  onTutorialChange,
} from "./form-dependencies.ts";

/** One user edit of the measurement form: set one field to a value. */
export type ConfigChange = {
  [F in keyof MeasurementConfig]: { readonly field: F; readonly value: MeasurementConfig[F] };
}[keyof MeasurementConfig];

/**
 * The measurement form's reducer. Given a config the rules allow in `context`, returns one they still allow:
 * dependent fields follow the form dependencies (scheduling seed §4) and values the §5 table refuses are ignored.
 * Patient selection also changes the context (language, display name): use `onPatientSelected` for it.
 */
export const applyConfigChange = (config: MeasurementConfig, change: ConfigChange, context: ConfigContext): MeasurementConfig => {
  switch (change.field) {
    case "pattern":
      return onPatternChange(config, change.value, context);
    case "strategy":
      return onStrategyChange(config, change.value, context);
    case "sorsStage":
      return onSorsStageChange(config, change.value, context);
    case "eye":
      return onEyeChange(config, change.value, context);
    case "stimuliSize":
      return onSizeChange(config, change.value, context);
    case "stimuliShowtime":
      return onShowtimeChange(config, change.value, context);
    case "audioGuide":
      return onAudioGuideChange(config, change.value, context);
    case "trackGaze":
      return onTrackGazeChange(config, change.value, context);
    case "tutorial":
      return onTutorialChange(config, change.value, context);
    case "notes":
      return onNotesChange(config, change.value, context);
    case "patientId":
      return { ...config, patientId: change.value };
    case "deviceSn":
      return { ...config, deviceSn: change.value };
    case "displayName":
      return { ...config, displayName: change.value };
    case "stimuliUpdate":
      return { ...config, stimuliUpdate: change.value };
    case "playSound":
      return { ...config, playSound: change.value };
  }
};
