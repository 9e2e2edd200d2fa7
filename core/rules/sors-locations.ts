import { type SorsLocations, Strategy } from "../model/enums.ts";

/** "The SORS locations list shows only for SORS and excludes 16." (scheduling seed §5) */
export const sorsLocationList: readonly SorsLocations[] = [10, 20, 36, 48, 54];

/** "SORS screening is SORS with 16 locations." (scheduling seed §3) */
export const sorsScreeningLocations = 16 as const;

/** "choosing SORS with 16 switches to the default of 36" and "else resets to 36" (scheduling seed §4). */
export const defaultSorsLocations = 36 as const;

/** Whether the form shows the SORS locations select (only for SORS, not for SORS screening). */
export const showsSorsLocations = (strategy: Strategy): boolean => strategy === Strategy.SORS;

export const isListedSorsLocations = (count: SorsLocations): boolean => sorsLocationList.includes(count);

/**
 * The location count a strategy goes with: SORS screening is always 16; any other strategy keeps a listed count,
 * else the default 36 (a non-SORS strategy keeps the count so switching back to SORS restores it).
 */
export const sorsStageFor = (strategy: Strategy, current: SorsLocations): SorsLocations =>
  strategy === Strategy.SORS_screening ? sorsScreeningLocations : isListedSorsLocations(current) ? current : defaultSorsLocations;

/** "SORS with 16 locations becomes SORS screening." (scheduling seed §4); other strategies are kept. */
export const strategyForSorsStage = (strategy: Strategy, sorsStage: SorsLocations): Strategy =>
  strategy === Strategy.SORS && sorsStage === sorsScreeningLocations ? Strategy.SORS_screening : strategy;
