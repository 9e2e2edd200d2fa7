import type { HomeEndReason, HomeProgrammeBody, HomeProgrammeView } from "../../../core/model/contract/index.ts";
import type { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { HomeProgramme, HomeUpload, SessionSlot } from "../../../core/home/index.ts";
import type { Queryable, Row } from "../db/database.ts";

// Home programmes and the home results stored once per session and eye (migration 020).

const toView = (r: Row): HomeProgrammeView => ({
  id: r.id as string,
  patientId: r.patient_id as string,
  deviceSn: r.device_sn as string,
  eyes: r.eyes as Eye[],
  pattern: r.pattern as Pattern,
  strategy: r.strategy as Strategy,
  frequency: r.frequency as HomeProgrammeView["frequency"],
  start: r.start_date as string,
  end: r.end_date as string,
  reminderTime: r.reminder_time as string,
  timeZone: r.time_zone as string,
  reminderEmail: (r.reminder_email as string | null) ?? null,
  standaloneId: r.standalone_id as string,
  createdBy: r.created_by as string,
  createdAt: r.created_at as string,
  state: r.state as HomeProgrammeView["state"],
  endedAt: (r.ended_at as string | null) ?? null,
  endedReason: (r.ended_reason as HomeEndReason | null) ?? null,
});

/** A stored programme as core/home reads it (its rules know nothing of ids and states). */
export const rulesOf = (p: HomeProgrammeView): HomeProgramme => {
  const {
    id: _i,
    standaloneId: _s,
    createdBy: _b,
    createdAt: _c,
    state: _t,
    endedAt: _e,
    endedReason: _r,
    reminderEmail: _m,
    ...programme
  } = p;
  return programme;
};

export interface ProgrammeRow extends HomeProgrammeView {
  readonly organisationId: string;
}

const withOrg = (r: Row): ProgrammeRow => ({ ...toView(r), organisationId: r.organisation_id as string });

export const insertProgramme = async (
  q: Queryable,
  org: string,
  p: HomeProgrammeBody & { id: string; standaloneId: string; createdBy: string; createdAt: string },
) => {
  await q.query(
    `insert into home_programmes (id, organisation_id, patient_id, device_sn, standalone_id, eyes, pattern, strategy, frequency,
       start_date, end_date, reminder_time, time_zone, created_by, created_at, reminder_email)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      p.id,
      org,
      p.patientId,
      p.deviceSn,
      p.standaloneId,
      JSON.stringify(p.eyes),
      p.pattern,
      p.strategy,
      JSON.stringify(p.frequency),
      p.start,
      p.end,
      p.reminderTime,
      p.timeZone,
      p.createdBy,
      p.createdAt,
      p.reminderEmail ?? null,
    ],
  );
};

export const programmeById = async (q: Queryable, org: string, id: string): Promise<ProgrammeRow | undefined> => {
  const r = (await q.query("select * from home_programmes where organisation_id = $1 and id = $2", [org, id]))[0];
  return r && withOrg(r);
};

export const programmesOfPatient = async (q: Queryable, org: string, patientId: string): Promise<HomeProgrammeView[]> =>
  (
    await q.query("select * from home_programmes where organisation_id = $1 and patient_id = $2 order by created_at desc, id", [
      org,
      patientId,
    ])
  ).map(toView);

/** The programme the headset is bound to now, if any. */
export const boundProgramme = async (q: Queryable, sn: string): Promise<ProgrammeRow | undefined> => {
  const r = (await q.query("select * from home_programmes where device_sn = $1 and state = 'active'", [sn]))[0];
  return r && withOrg(r);
};

/** The programme (active or ended) whose stand-alone test this is, on this headset. */
export const programmeOfStandalone = async (q: Queryable, sn: string, standaloneId: string): Promise<ProgrammeRow | undefined> => {
  const r = (await q.query("select * from home_programmes where device_sn = $1 and standalone_id = $2", [sn, standaloneId]))[0];
  return r && withOrg(r);
};

/** Ends the programme if active; false when it had ended already. */
export const endProgramme = async (q: Queryable, id: string, reason: HomeEndReason, now: string): Promise<boolean> =>
  (
    await q.query(
      "update home_programmes set state = 'ended', ended_at = $3, ended_reason = $2 where id = $1 and state = 'active' returning id",
      [id, reason, now],
    )
  ).length > 0;

export interface HomeResultRow {
  readonly programmeId: string;
  readonly slot: SessionSlot;
  readonly takenAt: string;
  readonly measurementId: string;
  readonly deviceSn: string;
  readonly resultId: string;
  readonly address: string;
  readonly receivedAt: string;
}

export const insertHomeResult = async (q: Queryable, r: HomeResultRow) => {
  await q.query(
    `insert into home_results (programme_id, session_index, eye, taken_at, measurement_id, device_sn, result_id, address, received_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.programmeId, r.slot.index, r.slot.eye, r.takenAt, r.measurementId, r.deviceSn, r.resultId, r.address, r.receivedAt],
  );
};

/** The programme's stored results as core/home reads them, in arrival order: the slots they fill and the uploads. */
export const storedResults = async (q: Queryable, p: HomeProgrammeView): Promise<{ slots: SessionSlot[]; uploads: HomeUpload[] }> => {
  const rows = await q.query<{ session_index: number; eye: Eye; taken_at: string }>(
    "select session_index, eye, taken_at from home_results where programme_id = $1 order by received_at, session_index, eye",
    [p.id],
  );
  return {
    slots: rows.map((r) => ({ index: r.session_index, eye: r.eye })),
    uploads: rows.map((r) => ({ takenAt: r.taken_at, eye: r.eye, pattern: p.pattern, strategy: p.strategy })),
  };
};
