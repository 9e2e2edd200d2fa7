import type { HomeSetting, TestConfig } from "../../core/device/protocol.ts";
import { type HomeProgramme, clinicDate, reminderInstant, repeatIndex, sessionAt } from "../../core/home/index.ts";
import type { Eye } from "../../core/model/enums.ts";
import { type HomeBehaviour, type SessionLapse, drawSession } from "../perimetry/home-behaviour.ts";
import type { Rng } from "../perimetry/random.ts";

// A home headset's sessions (issue 31 §4): each stand-alone repetition is a session its patient may skip, stop midway,
// misunderstand or sit with the headset slipped (simulator/perimetry/home-behaviour.ts). The headset asks for a
// session's lapses as it starts one and reports how it ended; the counts are what bench:home and tests read.
//
// Bound to a home programme (the stand-alone setting's `home`: its schedule), the headset keeps the programme's
// calendar: each repetition is the next session, its results taken at that session's reminder time. The sessions are
// compressed in time (ours, for the simulation): the headset's calendar moves on a session per repetition, however
// little real time passed, from the programme's first session; a skipped or stopped session is passed by (missed). It
// never runs past the real now: a session whose reminder time is still to come is taken now if its window has opened
// (the clinic's today), and one not yet open waits (nothing due; the headset looks again after its gap). So a result
// is never dated in the future, which the server refuses (core/home sessionFor "in-the-future"). Past the programme's
// last session nothing more is due.
// A repeat the clinic asked for (the schedule's `repeats`) comes first while its window holds the clinic's today: run
// once, for its eyes, taken now.

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

  private calendar: { programmeId: string; next: number; repeatsRun: Set<number> } | null = null;

  /**
   * The next session of the programme `home` (with the test `config`), moving the calendar on: its slot index
   * (negative for a repeat), the instant its results are taken at and, for a repeat, the eyes to test; null when nothing
   * is due now (the next session not yet open, or none left). `now` is now's instant.
   */
  nextSession(home: HomeSetting, config: TestConfig, now: string): { index: number; takenAt: string; eyes?: readonly Eye[] } | null {
    const p: HomeProgramme = { ...home, patientId: config.patientId, deviceSn: "", pattern: config.pattern, strategy: config.strategy };
    if (this.calendar?.programmeId !== home.programmeId) this.calendar = { programmeId: home.programmeId, next: 0, repeatsRun: new Set() };
    const today = clinicDate(p, now);
    const repeat = (home.repeats ?? []).find((r) => r.from <= today && today <= r.to && !this.calendar!.repeatsRun.has(r.number));
    if (repeat) {
      this.calendar.repeatsRun.add(repeat.number);
      return { index: repeatIndex(repeat.number), takenAt: now, eyes: repeat.eyes };
    }
    const session = sessionAt(p, this.calendar.next);
    if (!session || session.from > today) return null;
    this.calendar.next++;
    const reminder = reminderInstant(p, session);
    return { index: session.index, takenAt: reminder < now ? reminder : now };
  }

  /** Whether the patient stops now, after `nTested` of `nLocations` locations. */
  static stopsNow(lapse: SessionLapse | undefined, nTested: number, nLocations: number): boolean {
    return lapse?.stopsAt != null && nLocations > 0 && nTested / nLocations >= lapse.stopsAt;
  }
}
