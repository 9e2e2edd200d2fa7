import { Schema } from "effect";
import { isTimeZone } from "../model/clinic-time.ts";
import { EyeSchema, PatternSchema, StrategySchema, patternLabel, strategyCodes } from "../model/enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateSchema } from "../model/ids.ts";
import { parseIsoDate } from "../rules/calendar-date.ts";
import { eyesFor } from "../rules/eyes.ts";
import { patternOptions, strategiesFor } from "../rules/pattern-options.ts";

// Home monitoring (issue 31), first step: the rules of a home programme, pure and without a clock (dates come in).
// The server refuses a programme with `checkProgramme` (simulator/server/home/binding.ts); the web does not use it yet.
//
// A home programme is the seeds' stand-alone mode in scheduled form, bound to one patient: the headset repeats one
// chosen measurement ("The device repeats one chosen measurement until switched off", scheduling seed §4), here on
// the days the frequency names, between a start and an end date. So the measurement rules are the stand-alone form's
// (scheduling seed §5, core/rules): the §5 table's pattern, its strategies and its eyes in stand-alone mode.

/** How often a session falls due; `every` counts days (2 to 90, see `EVERY_DAYS_RANGE`). */
export const FrequencySchema = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("daily") }),
  Schema.Struct({ kind: Schema.Literal("weekly") }),
  Schema.Struct({ kind: Schema.Literal("every"), days: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("monthly") }),
]);
export type Frequency = Schema.Schema.Type<typeof FrequencySchema>;

/** Time of day as "HH:MM" (24 hours). */
export const TimeOfDaySchema = Schema.String.check(Schema.isPattern(/^\d{2}:\d{2}$/));

export const HomeProgrammeSchema = Schema.Struct({
  patientId: IdSchema,
  /** The lent headset, bound to this patient while the programme runs. */
  deviceSn: DeviceSnSchema,
  /** Each eye is tested once a session; 'Both' is spelt as the two eyes (stand-alone mode offers no 'Both'). */
  eyes: Schema.Array(EyeSchema),
  pattern: PatternSchema,
  strategy: StrategySchema,
  frequency: FrequencySchema,
  /** First and last day of the programme (both included), calendar dates in the clinic's time zone. */
  start: IsoDateSchema,
  end: IsoDateSchema,
  /** When the reminder goes out on a session's first day, on the clinic's clock. */
  reminderTime: TimeOfDaySchema,
  /** The clinic's IANA time zone: results' instants are read as its calendar dates. */
  timeZone: Schema.String,
});
export type HomeProgramme = Schema.Schema.Type<typeof HomeProgrammeSchema>;

/**
 * Our choice: every N days from 2 (1 is daily) to 90. The published home programmes test weekly (Melbourne Rapid
 * Fields, 73 % adherence over 12 months) or monthly (Eyecatcher, 98 %); past a quarter the clinic's own visits come as
 * often, and a home series that sparse gives the trend criteria no more than the clinic's.
 */
export const EVERY_DAYS_RANGE = { min: 2, max: 90 } as const;

/** The rules a programme may break; the seeds' ones first, then ours. */
export type ProgrammeRule =
  /** Scheduling §5 "Allowed options per pattern": the table lists the pattern. */
  | "pattern-offered"
  /** Scheduling §5: the pattern's strategies ("SORS strategies are not offered for 10-2 or 30-2", S28 Supra only, ...). */
  | "strategy-for-pattern"
  /** Scheduling §5: the pattern's eyes, without 'Both' outside create (stand-alone repeats one measurement). */
  | "eye-for-pattern"
  /** Ours: at least one eye, none twice. */
  | "eyes-listed-once"
  /** Ours: real calendar dates, the end not before the start. */
  | "dates"
  | "frequency-range"
  | "reminder-time"
  | "time-zone";

export interface ProgrammeRefusal {
  readonly rule: ProgrammeRule;
  readonly field: keyof HomeProgramme;
  /** What was refused, in figures the web words (the pattern's label, the strategy's, the eye code, N days). */
  readonly value: string | number;
}

const refusal = (rule: ProgrammeRule, field: keyof HomeProgramme, value: string | number): ProgrammeRefusal => ({ rule, field, value });

const isTimeOfDay = (t: string): boolean => {
  const m = /^(\d{2}):(\d{2})$/.exec(t);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59;
};

/**
 * Every rule the programme breaks (empty: it may be prescribed). The measurement rules are core/rules' own functions
 * (the §5 table through `patternOptions`, `strategiesFor`, `eyesFor` in stand-alone mode), never restated here.
 */
export function checkProgramme(p: HomeProgramme): ProgrammeRefusal[] {
  const found: ProgrammeRefusal[] = [];
  if (patternOptions(p.pattern) === undefined) found.push(refusal("pattern-offered", "pattern", patternLabel[p.pattern]));
  else {
    if (!strategiesFor(p.pattern).includes(p.strategy))
      found.push(refusal("strategy-for-pattern", "strategy", strategyCodes[p.strategy].label));
    const eyes = eyesFor(p.pattern, "standalone");
    for (const eye of p.eyes) if (!eyes.includes(eye)) found.push(refusal("eye-for-pattern", "eyes", eye));
  }
  if (p.eyes.length === 0 || new Set(p.eyes).size !== p.eyes.length) found.push(refusal("eyes-listed-once", "eyes", p.eyes.length));
  if (!parseIsoDate(p.start)) found.push(refusal("dates", "start", p.start));
  else if (!parseIsoDate(p.end) || p.end < p.start) found.push(refusal("dates", "end", p.end));
  const f = p.frequency;
  if (f.kind === "every" && (f.days < EVERY_DAYS_RANGE.min || f.days > EVERY_DAYS_RANGE.max))
    found.push(refusal("frequency-range", "frequency", f.days));
  if (!isTimeOfDay(p.reminderTime)) found.push(refusal("reminder-time", "reminderTime", p.reminderTime));
  if (!isTimeZone(p.timeZone)) found.push(refusal("time-zone", "timeZone", p.timeZone));
  return found;
}
