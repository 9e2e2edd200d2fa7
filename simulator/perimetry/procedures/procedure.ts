// A per-location test procedure: which level to show next, what the responses mean, when it is done.
// Levels are integer dB of attenuation (0 dB = the brightest stimulus, 10000 asb; higher = dimmer).

export const MIN_DB = 0;
export const MAX_DB = 40;
/**
 * A thresholding procedure's estimate where even the brightest stimulus was not seen: "<0 dB", stored as -1 (as
 * visualFields and HFA exports code it), so it stays apart from a threshold of 0 dB, which was seen
 * (core/analytics/seen.ts). Screening procedures keep 0 for a miss: their value is the level seen.
 */
export const NOT_SEEN_DB = -1;

export interface Procedure {
  readonly done: boolean;
  /** Stimuli presented at this location so far. */
  readonly presentations: number;
  /** Level of the next presentation (only while not done). */
  nextLevel(): number;
  record(level: number, seen: boolean): void;
  /** The threshold estimate in dB once done (screening: the level seen, or 0 when missed). */
  estimate(): number;
  /** Screening procedures: whether the location was seen; null for thresholding procedures. */
  readonly seen: boolean | null;
}

export const clampDb = (db: number): number => Math.min(MAX_DB, Math.max(MIN_DB, Math.round(db)));

/** Midpoint of the final bracket, the usual estimate of bracketing procedures (Octopus: +-1 dB at 2 dB steps). */
export const bracketEstimate = (lastSeen: number | null, lastUnseen: number | null): number => {
  if (lastSeen === null) return NOT_SEEN_DB; // never seen, even at the brightest: "<0 dB"
  if (lastUnseen === null) return lastSeen; // seen at the dimmest level: at least that
  return (lastSeen + lastUnseen) / 2;
};

/** What a bracketing procedure has seen so far: the last levels seen and not seen. */
export interface Bracket {
  readonly lastSeen: number | null;
  readonly lastUnseen: number | null;
}

/**
 * The skeleton the thresholding procedures share: show a level, record the response in the bracket, and ask the
 * procedure's stepping rule for the next level or "done". The estimate is the midpoint of the final bracket.
 */
export const bracketing = (start: number, next: (shown: number, seen: boolean, bracket: Bracket) => number | "done"): Procedure => {
  let level = clampDb(start);
  const bracket = { lastSeen: null as number | null, lastUnseen: null as number | null };
  let presentations = 0;
  let done = false;
  return {
    get done() {
      return done;
    },
    get presentations() {
      return presentations;
    },
    seen: null,
    nextLevel: () => level,
    record: (shown, seen) => {
      presentations++;
      if (seen) bracket.lastSeen = shown;
      else bracket.lastUnseen = shown;
      const step = next(shown, seen, bracket);
      if (step === "done") done = true;
      else level = clampDb(step);
    },
    estimate: () => bracketEstimate(bracket.lastSeen, bracket.lastUnseen),
  };
};
