import { Pattern, StimulusSize, Strategy } from "../model/enums.ts";
import { isSorsStrategy, patternOptions } from "./pattern-options.ts";

const { I, II, III, IV, V, III_ADAPTIVE } = StimulusSize;
const allSix: readonly StimulusSize[] = [I, II, III, IV, V, III_ADAPTIVE];

/**
 * Sizes the form offers for a pattern and strategy. Scheduling seed §5 "Size by strategy": "Esterman gives IV only;
 * C40 and S28 give III only; SORS and SORS screening give III adaptive or III; supra-threshold gives III only;
 * otherwise all six." This refines the table's "I to V" column (which cannot be strict: SORS forces III adaptive).
 * Empty when the pattern does not allow the strategy.
 */
export const sizesFor = (pattern: Pattern, strategy: Strategy): readonly StimulusSize[] => {
  if (!patternOptions(pattern)?.strategies.includes(strategy)) return [];
  if (pattern === Pattern.Esterman) return [IV];
  if (pattern === Pattern.C40 || pattern === Pattern.S28) return [III];
  if (isSorsStrategy(strategy)) return [III_ADAPTIVE, III];
  if (strategy === Strategy.Supra) return [III];
  return allSix;
};
