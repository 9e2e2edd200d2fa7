import type { HomeSetting, TestConfig } from "../../core/device/protocol.ts";
import { type HomeProgramme, clinicDate, reminderInstant, sessionAt, sessionOn } from "../../core/home/index.ts";
import { type HomeBehaviour, type SessionLapse, drawSession } from "../perimetry/home-behaviour.ts";
import type { Rng } from "../perimetry/random.ts";

// A home headset's sessions (issue 31 §4): each stand-alone repetition is a session its patient may skip, stop midway,
// misunderstand or sit with the headset slipped (simulator/perimetry/home-behaviour.ts). The headset asks for a
// session's lapses as it starts one and reports how it ended; the counts are what bench:home and tests read.
//
// Bound to a home programme (the stand-alone setting's `home`: its schedule), the headset keeps the programme's
// calendar: each repetition is the next session, its results taken at that session's reminder time. The sessions are
// compressed in time (ours, for the simulation): the headset's calendar moves on a session per repetition, however
// little real time passed, starting with the session due today; a skipped or stopped session is passed by. Past the
// programme's last session nothing more is due.

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

  private calendar: { programmeId: string; next: number } | null = null;

  /**
   * The next session of the programme `home` (with the test `config`), moving the calendar on: its number and the
   * instant its results are taken at; null when the programme has no session left. `today` is now's instant.
   */
  nextSession(home: HomeSetting, config: TestConfig, today: string): { index: number; takenAt: string } | null {
    const p: HomeProgramme = { ...home, patientId: config.patientId, deviceSn: "", pattern: config.pattern, strategy: config.strategy };
    if (this.calendar?.programmeId !== home.programmeId)
      this.calendar = {
        programmeId: home.programmeId,
        next: clinicDate(p, today) < home.start ? 0 : (sessionOn(p, clinicDate(p, today))?.index ?? -1),
      };
    const session = sessionAt(p, this.calendar.next);
    if (!session) return null;
    this.calendar.next++;
    return { index: session.index, takenAt: reminderInstant(p, session) };
  }

  /** Whether the patient stops now, after `nTested` of `nLocations` locations. */
  static stopsNow(lapse: SessionLapse | undefined, nTested: number, nLocations: number): boolean {
    return lapse?.stopsAt != null && nLocations > 0 && nTested / nLocations >= lapse.stopsAt;
  }
}
