import { type HomeBehaviour, type SessionLapse, drawSession } from "../perimetry/home-behaviour.ts";
import type { Rng } from "../perimetry/random.ts";

// A home headset's sessions (issue 31 §4): each stand-alone repetition is a session its patient may skip, stop midway,
// misunderstand or sit with the headset slipped (simulator/perimetry/home-behaviour.ts). The headset asks for a
// session's lapses as it starts one and reports how it ended; the counts are what bench:home and tests read.

export type SessionEnd = "skipped" | "stopped" | "done";

export interface SessionCounts {
  skipped: number;
  stopped: number;
  done: number;
  misunderstood: number;
  slipped: number;
}

export class HomeSessions {
  readonly counts: SessionCounts = { skipped: 0, stopped: 0, done: 0, misunderstood: 0, slipped: 0 };

  constructor(
    behaviour: HomeBehaviour,
    private readonly rng: Rng,
  ) {
    this.behaviour = behaviour;
  }

  /** May be changed while running (the next session draws with the new rates). */
  behaviour: HomeBehaviour;

  /** The next session's lapses. */
  draw(): SessionLapse {
    const lapse = drawSession(this.behaviour, this.rng);
    if (lapse.misunderstands) this.counts.misunderstood++;
    if (lapse.slipped) this.counts.slipped++;
    return lapse;
  }

  ended(how: SessionEnd): void {
    this.counts[how]++;
  }

  /** Whether the patient stops now, after `nTested` of `nLocations` locations. */
  static stopsNow(lapse: SessionLapse | undefined, nTested: number, nLocations: number): boolean {
    return lapse?.stopsAt != null && nLocations > 0 && nTested / nLocations >= lapse.stopsAt;
  }
}
