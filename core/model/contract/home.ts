import { Schema } from "effect";
import { EyeSchema, PatternSchema, StrategySchema } from "../enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateSchema, IsoDateTimeSchema } from "../ids.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { IdQuery, PatientIdQuery } from "./shared.ts";

// Home programmes (issue 31 §1, §3, §5; our design): a patient is lent a headset that repeats one test on a schedule,
// the seeds' stand-alone mode in scheduled form. Open to every role, as planning a test is (perimetry/register and
// device/standalone carry no role rule: "the clinical side is open to every logged-in role"). The shapes are
// core/home's HomeProgramme on the wire (core/home sits above the model, so the contract cannot import it; the
// server assigns one to the other, so tsc holds them equal).

/** How often a session falls due; `every` counts days. */
export const HomeFrequencySchema = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("daily") }),
  Schema.Struct({ kind: Schema.Literal("weekly") }),
  Schema.Struct({ kind: Schema.Literal("every"), days: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("monthly") }),
]);

/** When sessions fall due: what the headset needs besides the test (core/device/protocol.ts Standalone.home). */
export const HomeScheduleSchema = Schema.Struct({
  /** Each eye once a session (the programme's 'Both' is its two eyes). */
  eyes: Schema.Array(EyeSchema),
  frequency: HomeFrequencySchema,
  /** First and last day, both included, calendar dates in the clinic's zone. */
  start: IsoDateSchema,
  end: IsoDateSchema,
  /** "HH:MM" on the clinic's clock. */
  reminderTime: Schema.String.check(Schema.isPattern(/^\d{2}:\d{2}$/)),
  /** The clinic's IANA time zone. */
  timeZone: Schema.String,
});
export type HomeSchedule = Schema.Schema.Type<typeof HomeScheduleSchema>;

/** The patient's address for reminders (the patient record has no e-mail field): core/rules' e-mail pattern, which the
 * model cannot import (it sits below rules): something@domain.tld without spaces. */
export const ReminderEmailSchema = Schema.String.check(
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u, { message: "must be an e-mail address such as name@example.org" }),
);

export const HomeProgrammeBodySchema = Schema.Struct({
  patientId: IdSchema,
  /** The lent headset: bound to this patient while the programme is active. */
  deviceSn: DeviceSnSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
  ...HomeScheduleSchema.fields,
  /** Where reminders of missed sessions and repeats go; absent: they are noted, not sent. */
  reminderEmail: Schema.optionalKey(ReminderEmailSchema),
});
export type HomeProgrammeBody = Schema.Schema.Type<typeof HomeProgrammeBodySchema>;

/** Why a programme ended: the headset came back, its credential was revoked, or the clinician ended it. */
export const HomeEndReasonSchema = Schema.Literals(["returned", "revoked", "ended"]);
export type HomeEndReason = Schema.Schema.Type<typeof HomeEndReasonSchema>;

export const HomeProgrammeSchema = Schema.Struct({
  id: IdSchema,
  ...HomeProgrammeBodySchema.fields,
  reminderEmail: Schema.NullOr(ReminderEmailSchema),
  /** The stand-alone data the headset repeats (device/standalone_data?id=). */
  standaloneId: IdSchema,
  createdBy: Schema.String,
  createdAt: IsoDateTimeSchema,
  state: Schema.Literals(["active", "ended"]),
  endedAt: Schema.NullOr(IsoDateTimeSchema),
  endedReason: Schema.NullOr(HomeEndReasonSchema),
});
export type HomeProgrammeView = Schema.Schema.Type<typeof HomeProgrammeSchema>;

/** core/home/adherence.ts's figures for one programme on the clinic's today. */
export const HomeAdherenceSchema = Schema.Struct({
  programmeId: IdSchema,
  patientId: IdSchema,
  today: IsoDateSchema,
  due: Schema.Finite,
  done: Schema.Finite,
  missed: Schema.Finite,
  partial: Schema.Finite,
  /** done / due; null while no session is due. */
  rate: Schema.NullOr(Schema.Finite),
});
export type HomeAdherenceView = Schema.Schema.Type<typeof HomeAdherenceSchema>;

export const homeProgrammeCreate = endpoint({
  name: "home.programmeCreate",
  method: "POST",
  path: "home/programme/create",
  body: HomeProgrammeBodySchema,
  response: HomeProgrammeSchema,
  errors: [...commonErrors, "not_found", "conflict", "device_busy"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "binds the headset to the patient and sets its stand-alone test to the programme's; a programme the seeds' rules forbid is " +
    "refused naming the rule (core/home checkProgramme); conflict when the headset is bound to another active programme; " +
    "device_busy while a test runs on it (stand-alone mode cannot change then)",
});

export const homeProgrammes = endpoint({
  name: "home.programmes",
  method: "GET",
  path: "home/programme/all",
  query: PatientIdQuery,
  response: Schema.Array(HomeProgrammeSchema),
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the patient's home programmes, active and ended, the newest first",
});

export const homeProgrammeEnd = endpoint({
  name: "home.programmeEnd",
  method: "PATCH",
  path: "home/programme/end",
  query: IdQuery,
  body: Schema.Struct({ reason: Schema.Literals(["returned", "ended"]) }),
  response: HomeProgrammeSchema,
  errors: [...commonErrors, "not_found", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "ends the binding at once (returned: the headset came back): the headset's stand-alone setting is cleared and its later " +
    "uploads for the programme are refused; conflict when it has ended already (device/revoke ends it as revoked)",
});

export const homeAdherence = endpoint({
  name: "home.adherence",
  method: "GET",
  path: "home/programme/adherence",
  query: IdQuery,
  response: HomeAdherenceSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "sessions due, done and missed and the rate (core/home adherence) on the clinic's today",
});
