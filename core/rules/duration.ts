import { Pattern, type SorsLocations, StimuliUpdate, type Strategy, Strategy as S } from "../model/enums.ts";

// Scheduling seed §9 base times (seconds at a 2000 ms stimuli update):
//   24-2: Normal 575, DS 329.4, Supra 129.6; SORS with 10/20/36/48/54 points = 61.8/104/217.2/282.6/318.
//   G: Normal 690.6, DS 364.2, Supra 141.84; SORS 10/20/36/48/54 = 61.8/123.6/217.2/282.6/347.4.
//   10-2: Normal 802.2, DS 463.8, Supra 165.6.   30-2: Normal 802.2, DS 463.8, Supra 180.
//   28 screening: Supra 64.8. Esterman: 1LT 340.
// The table gives nothing for C40, for SORS screening (SORS with 16, a count the table does not list) or any other
// pair: "Unknown combinations give no estimate."

type SorsBase = Partial<Record<SorsLocations, number>>;
interface PatternBase {
  readonly byStrategy: Partial<Record<Strategy, number>>;
  readonly sors?: SorsBase;
}

export const durationBaseTimes: Partial<Record<Pattern, PatternBase>> = {
  [Pattern.P24_2]: {
    byStrategy: { [S.Normal]: 575, [S.DS]: 329.4, [S.Supra]: 129.6 },
    sors: { 10: 61.8, 20: 104, 36: 217.2, 48: 282.6, 54: 318 },
  },
  [Pattern.G]: {
    byStrategy: { [S.Normal]: 690.6, [S.DS]: 364.2, [S.Supra]: 141.84 },
    sors: { 10: 61.8, 20: 123.6, 36: 217.2, 48: 282.6, 54: 347.4 },
  },
  [Pattern.P10_2]: { byStrategy: { [S.Normal]: 802.2, [S.DS]: 463.8, [S.Supra]: 165.6 } },
  [Pattern.P30_2]: { byStrategy: { [S.Normal]: 802.2, [S.DS]: 463.8, [S.Supra]: 180 } },
  [Pattern.S28]: { byStrategy: { [S.Supra]: 64.8 } },
  [Pattern.Esterman]: { byStrategy: { [S.OneLevel]: 340 } },
};

/** Base time for a pattern and strategy (SORS per location count); undefined for combinations the table lacks. */
export const durationBaseTime = (pattern: Pattern, strategy: Strategy, sorsStage: SorsLocations): number | undefined => {
  const base = durationBaseTimes[pattern];
  if (base === undefined) return undefined;
  return strategy === S.SORS ? base.sors?.[sorsStage] : base.byStrategy[strategy];
};

/** Audio guide, gaze tracking and tutorial add fixed seconds (§9). */
export const durationExtras = { audioGuide: 85, trackGaze: 50, tutorial: 120 } as const;

export interface DurationInputs {
  readonly pattern: Pattern;
  readonly strategy: Strategy;
  readonly sorsStage: SorsLocations;
  readonly stimuliUpdate: StimuliUpdate;
  readonly audioGuide: boolean;
  readonly trackGaze: boolean;
  readonly tutorial: boolean;
}

/**
 * "Estimated duration in seconds = base time for pattern and strategy divided by (2000 divided by stimuli update,
 * adaptive counting as 2000), rounded, plus 85 with audio guide, 50 with gaze tracking, 120 with tutorial. Unknown
 * combinations give no estimate." (scheduling seed §9). Per eye: the form shows it per eye.
 */
export const estimatedDurationSeconds = (config: DurationInputs): number | undefined => {
  const base = durationBaseTime(config.pattern, config.strategy, config.sorsStage);
  if (base === undefined) return undefined;
  const update = config.stimuliUpdate === StimuliUpdate.Adaptive ? 2000 : config.stimuliUpdate;
  return (
    Math.round(base / (2000 / update)) +
    (config.audioGuide ? durationExtras.audioGuide : 0) +
    (config.trackGaze ? durationExtras.trackGaze : 0) +
    (config.tutorial ? durationExtras.tutorial : 0)
  );
};
