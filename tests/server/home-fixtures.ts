import type { HomeProgrammeBody } from "../../core/model/contract/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { demoResult } from "../../simulator/server/demo/results.ts";

// Home programmes for the server's tests (issue 31): a valid body, calendar dates around today, and a result the
// headset would upload for one eye of a session.

const DAY_MS = 86_400_000;

/** The UTC calendar date `days` from now. */
export const dayFromNow = (days: number, now = Date.now()) => new Date(now + days * DAY_MS).toISOString().slice(0, 10);

/** Weekly, both eyes, 24-2 DS, three weeks ago to two months ahead, in UTC. */
export const programmeBody = (patientId: string, deviceSn: string, over: Partial<HomeProgrammeBody> = {}): HomeProgrammeBody => ({
  patientId,
  deviceSn,
  eyes: [Eye.Right, Eye.Left],
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  frequency: { kind: "weekly" },
  start: dayFromNow(-21),
  end: dayFromNow(60),
  reminderTime: "18:30",
  timeZone: "UTC",
  ...over,
});

/** A 24-2 DS result of the eye taken at `takenAt` (the patient id is the headset's claim; the server stamps its own). */
export const homeResult = (patientId: string, takenAt: string, eye: Eye = Eye.Right, seed = 7): MeasurementResult =>
  demoResult({
    measurementId: "",
    patientId,
    takenAt,
    ageYears: 66,
    yearsIntoCourse: 0,
    course: "healthy",
    eye,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    deviceAlias: "Home",
    seed,
  });
