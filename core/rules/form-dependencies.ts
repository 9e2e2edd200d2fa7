import { Pattern, StimulusSize, Strategy, type Language, type SorsLocations } from "../model/enums.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { ConfigContext } from "./form-context.ts";
import { eyesFor } from "./eyes.ts";
import { clipNotes } from "./notes.ts";
import { isSorsStrategy, patternOptions, showtimesFor } from "./pattern-options.ts";
import { sizesFor } from "./size-by-strategy.ts";
import { isListedSorsLocations, sorsScreeningLocations, sorsStageFor, strategyForSorsStage } from "./sors-locations.ts";
import { tutorialAvailable } from "./tutorial.ts";
import { displayNameFor } from "./display-name.ts";

// Scheduling seed §4 "Form dependencies". Each function takes a config the rules allow and returns one they allow;
// a requested value the rules refuse leaves the config as it was.

const keepOrFirst = <T>(value: T, options: readonly T[]): T => (options.includes(value) ? value : (options[0] ?? value));

/** The tutorial is switched off whenever its requirements stop holding. */
const withTutorialChecked = (config: MeasurementConfig, context: ConfigContext): MeasurementConfig =>
  config.tutorial && !tutorialAvailable({ ...config, patientLanguage: context.patientLanguage, variant: context.variant })
    ? { ...config, tutorial: false }
    : config;

/**
 * "Changing the pattern keeps the SORS location count if valid, else resets to 36; keeps eye, strategy, showtime,
 * size if valid, else takes the first valid option." A pattern the table does not list is refused.
 */
export const onPatternChange = (config: MeasurementConfig, pattern: Pattern, context: ConfigContext): MeasurementConfig => {
  const options = patternOptions(pattern);
  if (options === undefined) return config;
  const strategy = keepOrFirst(config.strategy, options.strategies);
  return {
    ...config,
    pattern,
    strategy,
    stimuliSize: keepOrFirst(config.stimuliSize, sizesFor(pattern, strategy)),
    sorsStage: sorsStageFor(strategy, config.sorsStage),
    eye: keepOrFirst(config.eye, eyesFor(pattern, context.mode)),
    stimuliShowtime: keepOrFirst(config.stimuliShowtime, options.showtimes),
  };
};

/**
 * "Choosing strategy SORS or SORS screening forces size III adaptive. [...] choosing SORS with 16 switches to the
 * default of 36." SORS screening always goes with 16 locations. Other strategies keep a valid size, else the first.
 */
export const onStrategyChange = (config: MeasurementConfig, strategy: Strategy, _context: ConfigContext): MeasurementConfig => {
  if (!patternOptions(config.pattern)?.strategies.includes(strategy)) return config;
  const sizes = sizesFor(config.pattern, strategy);
  return {
    ...config,
    strategy,
    stimuliSize: isSorsStrategy(strategy) ? StimulusSize.III_ADAPTIVE : keepOrFirst(config.stimuliSize, sizes),
    sorsStage: sorsStageFor(strategy, config.sorsStage),
  };
};

/**
 * The SORS locations list (SORS only, 16 excluded) sets the count. "SORS with 16 locations becomes SORS screening":
 * a 16 arriving for SORS turns the strategy into SORS screening (size forced to III adaptive as for choosing it).
 * SORS screening's count stays 16; other strategies store a listed count for a later switch back to SORS.
 */
export const onSorsStageChange = (config: MeasurementConfig, sorsStage: SorsLocations, context: ConfigContext): MeasurementConfig => {
  if (sorsStage === sorsScreeningLocations) {
    const strategy = strategyForSorsStage(config.strategy, sorsStage);
    return strategy === config.strategy ? config : onStrategyChange(config, strategy, context);
  }
  return isListedSorsLocations(sorsStage) && config.strategy !== Strategy.SORS_screening ? { ...config, sorsStage } : config;
};

/** "Turning audio guide off turns the tutorial off." */
export const onAudioGuideChange = (config: MeasurementConfig, audioGuide: boolean, context: ConfigContext): MeasurementConfig =>
  withTutorialChecked({ ...config, audioGuide }, context);

/** Gaze tracking off turns the tutorial off in the variant whose tutorial needs gaze tracking (tutorial.ts). */
export const onTrackGazeChange = (config: MeasurementConfig, trackGaze: boolean, context: ConfigContext): MeasurementConfig =>
  withTutorialChecked({ ...config, trackGaze }, context);

/** "Tutorial needs audio guide on, gaze tracking on (in one variant) and patient language English": otherwise refused. */
export const onTutorialChange = (config: MeasurementConfig, tutorial: boolean, context: ConfigContext): MeasurementConfig =>
  !tutorial || tutorialAvailable({ ...config, patientLanguage: context.patientLanguage, variant: context.variant })
    ? { ...config, tutorial }
    : config;

export const onEyeChange = (config: MeasurementConfig, eye: MeasurementConfig["eye"], context: ConfigContext): MeasurementConfig =>
  eyesFor(config.pattern, context.mode).includes(eye) ? { ...config, eye } : config;

export const onSizeChange = (config: MeasurementConfig, stimuliSize: StimulusSize, _context: ConfigContext): MeasurementConfig =>
  sizesFor(config.pattern, config.strategy).includes(stimuliSize) ? { ...config, stimuliSize } : config;

export const onShowtimeChange = (
  config: MeasurementConfig,
  stimuliShowtime: MeasurementConfig["stimuliShowtime"],
  _context: ConfigContext,
): MeasurementConfig => (showtimesFor(config.pattern).includes(stimuliShowtime) ? { ...config, stimuliShowtime } : config);

/** Notes beyond 256 characters are cut, as the limited text area does. */
export const onNotesChange = (config: MeasurementConfig, notes: string, _context: ConfigContext): MeasurementConfig => ({
  ...config,
  notes: clipNotes(notes),
});

export interface SelectedPatient {
  readonly id: string;
  readonly name: string;
  readonly lang: Language;
}

/**
 * "Display name defaults to 'Test' plus the patient name upon patient selection." (scheduling seed §5). The new
 * patient's language may rule out the tutorial. Clearing the patient keeps the display name.
 * Returns the config and the context the form should hold from now on.
 */
export const onPatientSelected = (
  config: MeasurementConfig,
  patient: SelectedPatient | null,
  context: ConfigContext,
): { readonly config: MeasurementConfig; readonly context: ConfigContext } => {
  const nextContext: ConfigContext = { ...context, patientLanguage: patient?.lang ?? null };
  const selected =
    patient === null ? { ...config, patientId: null } : { ...config, patientId: patient.id, displayName: displayNameFor(patient.name) };
  return { config: withTutorialChecked(selected, nextContext), context: nextContext };
};

/**
 * Brings any config (a prefill from an older measurement, a clone, an edit) into the rules of this context: an unknown
 * pattern becomes G, "SORS with 16 locations becomes SORS screening", then the pattern dependencies pick valid
 * options, the tutorial requirements are checked and notes are cut to the limit.
 */
export const normaliseConfig = (config: MeasurementConfig, context: ConfigContext): MeasurementConfig => {
  const pattern = patternOptions(config.pattern) === undefined ? Pattern.G : config.pattern;
  const strategy = strategyForSorsStage(config.strategy, config.sorsStage);
  const patterned = onPatternChange({ ...config, strategy }, pattern, context);
  return withTutorialChecked({ ...patterned, notes: clipNotes(config.notes) }, context);
};
