import { Strategy } from "../model/enums.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { ConfigContext } from "./form-context.ts";
import { eyesFor } from "./eyes.ts";
import { notesLength, notesLimit } from "./notes.ts";
import { patternOptions, showtimesFor } from "./pattern-options.ts";
import { sizesFor } from "./size-by-strategy.ts";
import { isListedSorsLocations, sorsScreeningLocations } from "./sors-locations.ts";
import { tutorialAvailable } from "./tutorial.ts";

export type ConfigField = keyof MeasurementConfig;

/**
 * Fields of a config that the rules do not allow in this context: the §5 table (pattern, strategy, size by strategy,
 * eye by mode, showtime), the SORS locations (SORS: a listed count; SORS screening: 16), the tutorial requirements
 * and the notes limit. Empty means the config is one the form may hold and save (patient aside: see required-fields).
 */
export const configViolations = (config: MeasurementConfig, context: ConfigContext): ConfigField[] => {
  const found: ConfigField[] = [];
  if (patternOptions(config.pattern) === undefined) return ["pattern"];
  if (!patternOptions(config.pattern)!.strategies.includes(config.strategy)) found.push("strategy");
  else if (!sizesFor(config.pattern, config.strategy).includes(config.stimuliSize)) found.push("stimuliSize");
  if (!eyesFor(config.pattern, context.mode).includes(config.eye)) found.push("eye");
  if (!showtimesFor(config.pattern).includes(config.stimuliShowtime)) found.push("stimuliShowtime");
  const sorsOk =
    config.strategy === Strategy.SORS_screening ? config.sorsStage === sorsScreeningLocations : isListedSorsLocations(config.sorsStage);
  if (!sorsOk) found.push("sorsStage");
  if (config.tutorial && !tutorialAvailable({ ...config, patientLanguage: context.patientLanguage, variant: context.variant }))
    found.push("tutorial");
  if (notesLength(config.notes) > notesLimit) found.push("notes");
  return found;
};

export const isConfigAllowed = (config: MeasurementConfig, context: ConfigContext): boolean =>
  configViolations(config, context).length === 0;
