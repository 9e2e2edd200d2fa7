import type { Appointment } from "../../../core/model/appointment.ts";
import type { Queryable, Row } from "../db/database.ts";
import { examinationsOfAppointment, examinationsOfAppointments } from "./examinations.ts";

// Appointments: examinations bundled for one patient on one device. Queued on the device while not trashed, its
// patient not trashed, and at least one examination still without a result.

interface Stored {
  readonly audioGuide: boolean;
  readonly tutorial: boolean;
  readonly trackGaze: boolean;
  readonly standaloneId: string | null;
}

const columns = "a.id, a.patient_id, a.device_sn, a.body, a.created_at, a.updated_at, a.trashed_at";

const toAppointment = async (q: Queryable, r: Row): Promise<Appointment> =>
  withExaminations(r, await examinationsOfAppointment(q, r.id as string));

const withExaminations = (r: Row, examinations: Appointment["examinations"]): Appointment => {
  const body = r.body as Stored;
  return {
    id: r.id as string,
    patientId: r.patient_id as string,
    deviceSn: (r.device_sn as string | null) ?? null,
    examinations,
    audioGuide: body.audioGuide,
    tutorial: body.tutorial,
    trackGaze: body.trackGaze,
    standaloneId: body.standaloneId,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    trashedAt: (r.trashed_at as string | null) ?? null,
  };
};

// One after the other: a PGlite transaction runs one statement at a time.
const many = async (q: Queryable, rows: Row[]) => {
  const out: Appointment[] = [];
  for (const r of rows) out.push(await toAppointment(q, r));
  return out;
};

export const getAppointment = async (q: Queryable, org: string, id: string): Promise<Appointment | undefined> => {
  const rows = await q.query(`select ${columns} from appointments a where a.organisation_id = $1 and a.id = $2`, [org, id]);
  return rows[0] ? toAppointment(q, rows[0]) : undefined;
};

export const listAppointments = async (q: Queryable, org: string, trashed: boolean): Promise<Appointment[]> =>
  many(
    q,
    await q.query(
      `select ${columns} from appointments a join patients p on p.id = a.patient_id
       where a.organisation_id = $1 and a.trashed_at is ${trashed ? "not null" : "null"} ${trashed ? "" : "and p.trashed_at is null"}
       order by a.created_at, a.id`,
      [org],
    ),
  );

export const appointmentQueueOf = async (q: Queryable, org: string, deviceSn: string): Promise<Appointment[]> =>
  many(
    q,
    await q.query(
      `select ${columns} from appointments a join patients p on p.id = a.patient_id
       where a.organisation_id = $1 and a.device_sn = $2 and a.trashed_at is null and p.trashed_at is null
         and exists (select 1 from examinations e where e.appointment_id = a.id and e.trashed_at is null and e.taken_at is null)
       order by a.queue_position, a.created_at, a.id`,
      [org, deviceSn],
    ),
  );

export const nextAppointmentPosition = async (q: Queryable, deviceSn: string): Promise<number> =>
  ((await q.query<{ n: number | null }>("select max(queue_position) as n from appointments where device_sn = $1", [deviceSn]))[0]?.n ?? 0) +
  1;

export const insertAppointment = async (q: Queryable, org: string, a: Omit<Appointment, "examinations">, position: number) => {
  const body: Stored = { audioGuide: a.audioGuide, tutorial: a.tutorial, trackGaze: a.trackGaze, standaloneId: a.standaloneId };
  await q.query(
    `insert into appointments (id, organisation_id, patient_id, device_sn, queue_position, body, created_at, updated_at, trashed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [a.id, org, a.patientId, a.deviceSn, position, JSON.stringify(body), a.createdAt, a.updatedAt, a.trashedAt],
  );
};

export const saveAppointment = async (q: Queryable, org: string, a: Omit<Appointment, "examinations">, position?: number) => {
  const body: Stored = { audioGuide: a.audioGuide, tutorial: a.tutorial, trackGaze: a.trackGaze, standaloneId: a.standaloneId };
  await q.query(
    `update appointments set patient_id = $3, device_sn = $4, body = $5, updated_at = $6, trashed_at = $7, queue_position = coalesce($8, queue_position)
     where organisation_id = $1 and id = $2`,
    [org, a.id, a.patientId, a.deviceSn, JSON.stringify(body), a.updatedAt, a.trashedAt, position ?? null],
  );
};

export const deleteAppointment = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from appointments where organisation_id = $1 and id = $2", [org, id]);
};

/** Every device lane of the organisation at once (device/all): two queries whatever the number of devices. */
export const appointmentQueuesOf = async (q: Queryable, org: string): Promise<Map<string, Appointment[]>> => {
  const rows = await q.query(
    `select ${columns} from appointments a join patients p on p.id = a.patient_id
     where a.organisation_id = $1 and a.device_sn is not null and a.trashed_at is null and p.trashed_at is null
       and exists (select 1 from examinations e where e.appointment_id = a.id and e.trashed_at is null and e.taken_at is null)
     order by a.device_sn, a.queue_position, a.created_at, a.id`,
    [org],
  );
  const exams = await examinationsOfAppointments(
    q,
    rows.map((r) => r.id as string),
  );
  const lanes = new Map<string, Appointment[]>();
  for (const r of rows) {
    const sn = r.device_sn as string;
    lanes.set(sn, [...(lanes.get(sn) ?? []), withExaminations(r, exams.get(r.id as string) ?? [])]);
  }
  return lanes;
};
