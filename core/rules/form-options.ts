import type { Eye, Pattern, Showtime, SorsLocations, StimuliUpdate, StimulusSize, Strategy } from "../model/enums.ts";
import { StimuliUpdate as Updates } from "../model/enums.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { ConfigContext } from "./form-context.ts";
import { estimatedDurationSeconds } from "./duration.ts";
import { eyesFor } from "./eyes.ts";
import { offeredPatterns, patternOptions } from "./pattern-options.ts";
import { sizesFor } from "./size-by-strategy.ts";
import { showsSorsLocations, sorsLocationList } from "./sors-locations.ts";
import { tutorialAvailable } from "./tutorial.ts";

/** Everything the measurement form renders for the current config: one call per render. */
export interface MeasurementFormOptions {
  readonly patterns: readonly Pattern[];
  readonly strategies: readonly Strategy[];
  readonly sizes: readonly StimulusSize[];
  readonly eyes: readonly Eye[];
  readonly showtimes: readonly Showtime[];
  readonly stimuliUpdates: readonly StimuliUpdate[];
  /** Empty when the SORS locations select is hidden (any strategy but SORS). */
  readonly sorsLocations: readonly SorsLocations[];
  readonly strategyLocked: boolean;
  readonly eyeLocked: boolean;
  /** Whether the tutorial toggle may be turned on. */
  readonly tutorialEnabled: boolean;
  /** Seconds per eye, or undefined when the §9 table gives no estimate. */
  readonly estimatedSeconds: number | undefined;
}

export const measurementFormOptions = (config: MeasurementConfig, context: ConfigContext): MeasurementFormOptions => {
  const row = patternOptions(config.pattern);
  return {
    patterns: offeredPatterns,
    strategies: row?.strategies ?? [],
    sizes: sizesFor(config.pattern, config.strategy),
    eyes: eyesFor(config.pattern, context.mode),
    showtimes: row?.showtimes ?? [],
    stimuliUpdates: Object.values(Updates),
    sorsLocations: showsSorsLocations(config.strategy) ? sorsLocationList : [],
    strategyLocked: row?.locked.strategy ?? false,
    eyeLocked: row?.locked.eye ?? false,
    tutorialEnabled: tutorialAvailable({ ...config, patientLanguage: context.patientLanguage, variant: context.variant }),
    estimatedSeconds: estimatedDurationSeconds(config),
  };
};
