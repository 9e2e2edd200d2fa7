import { Eye, Pattern, Showtime, StimulusSize, Strategy } from "../model/enums.ts";

// Scheduling seed §5 "Allowed options per pattern":
// | 24-2, G    | DS, SORS, SORS_screening, Normal, Supra | I to V | Right, Left, Both      | 200, 100 |
// | 10-2, 30-2 | DS, Normal, Supra                       | I to V | Right, Left, Both      | 200, 100 |
// | S28        | Supra only (locked)                     | III    | Right, Left, Both      | 200, 100 |
// | Esterman   | 1LT only (locked)                       | IV     | Binocular (eye locked) | 500      |
// | C40        | 1LT only (locked)                       | III    | Right, Left, Both      | 200, 100 |
// Lists keep the table's order: the first entry is the "first valid option" of the form dependencies.

export type TablePattern = Exclude<Pattern, typeof Pattern.Undefined>;

export interface PatternOptions {
  readonly strategies: readonly Strategy[];
  /** The table's size column; the form offers `sizesFor(pattern, strategy)` (see size-by-strategy.ts). */
  readonly sizes: readonly StimulusSize[];
  /** Eyes before the mode rule ('Both' only when creating, see eyes.ts). */
  readonly eyes: readonly Eye[];
  readonly showtimes: readonly Showtime[];
  /** Fields the table marks "(locked)": the form shows them disabled. */
  readonly locked: { readonly strategy: boolean; readonly eye: boolean };
}

const { I, II, III, IV, V } = StimulusSize;
const sidedEyes = [Eye.Right, Eye.Left, Eye.Both] as const;
const shortShowtimes = [Showtime.Ms200, Showtime.Ms100] as const;

const thresholdWithSors: PatternOptions = {
  strategies: [Strategy.DS, Strategy.SORS, Strategy.SORS_screening, Strategy.Normal, Strategy.Supra],
  sizes: [I, II, III, IV, V],
  eyes: sidedEyes,
  showtimes: shortShowtimes,
  locked: { strategy: false, eye: false },
};
const thresholdWithoutSors: PatternOptions = { ...thresholdWithSors, strategies: [Strategy.DS, Strategy.Normal, Strategy.Supra] };

export const patternOptionsTable: Readonly<Record<TablePattern, PatternOptions>> = {
  [Pattern.P24_2]: thresholdWithSors,
  [Pattern.G]: thresholdWithSors,
  [Pattern.P10_2]: thresholdWithoutSors,
  [Pattern.P30_2]: thresholdWithoutSors,
  [Pattern.S28]: {
    strategies: [Strategy.Supra],
    sizes: [III],
    eyes: sidedEyes,
    showtimes: shortShowtimes,
    locked: { strategy: true, eye: false },
  },
  [Pattern.Esterman]: {
    strategies: [Strategy.OneLevel],
    sizes: [IV],
    eyes: [Eye.Binocular],
    showtimes: [Showtime.Ms500],
    locked: { strategy: true, eye: true },
  },
  [Pattern.C40]: {
    strategies: [Strategy.OneLevel],
    sizes: [III],
    eyes: sidedEyes,
    showtimes: shortShowtimes,
    locked: { strategy: true, eye: false },
  },
};

/** Patterns the form offers, in the seeds' enumeration order (Undefined is never offered). */
export const offeredPatterns: readonly TablePattern[] = [
  Pattern.P24_2,
  Pattern.G,
  Pattern.P10_2,
  Pattern.P30_2,
  Pattern.S28,
  Pattern.Esterman,
  Pattern.C40,
];

export const isTablePattern = (pattern: Pattern): pattern is TablePattern => pattern !== Pattern.Undefined;

/** The §5 table row of a pattern; undefined for the Undefined pattern, which the table does not list. */
export const patternOptions = (pattern: Pattern): PatternOptions | undefined =>
  isTablePattern(pattern) ? patternOptionsTable[pattern] : undefined;

export const strategiesFor = (pattern: Pattern): readonly Strategy[] => patternOptions(pattern)?.strategies ?? [];
export const showtimesFor = (pattern: Pattern): readonly Showtime[] => patternOptions(pattern)?.showtimes ?? [];

/** "SORS strategies are not offered for 10-2 or 30-2." (scheduling seed §5) */
export const isSorsStrategy = (strategy: Strategy): boolean => strategy === Strategy.SORS || strategy === Strategy.SORS_screening;
