import { type Procedure, clampDb } from "./procedure.ts";

/** Show one level up to `tries` times; the first "seen" ends it. Seen: the estimate is the level; missed: 0 dB. */
const singleLevel = (level: number, tries: number): Procedure => {
  const shown = clampDb(level);
  let presentations = 0;
  let seen: boolean | null = null;
  return {
    get done() {
      return seen !== null;
    },
    get presentations() {
      return presentations;
    },
    get seen() {
      return seen;
    },
    nextLevel: () => shown,
    record: (_level, response) => {
      presentations++;
      if (response) seen = true;
      else if (presentations >= tries) seen = false;
    },
    estimate: () => (seen ? shown : 0),
  };
};

/** Supra: "present at the normal 95th-percentile level, up to 3 times, seen on the first seen". */
export const supraThreshold = (normal95Level: number): Procedure => singleLevel(normal95Level, 3);

/** 1LT: "one level (10 dB for Esterman) per location, seen or not"; a miss is shown once more (Esterman's retest). */
export const oneLevel = (level: number): Procedure => singleLevel(level, 2);
