import type { Examination, ExaminationConfig, ExaminationResult } from "../../../core/model/examination.ts";
import type { Eye, TestType } from "../../../core/model/enums.ts";
import type { Order } from "../../../core/model/order.ts";
import type { Queryable, Row } from "../db/database.ts";

// Examinations: one test each, usually inside an appointment (position = run order). taken = result present.

interface Stored {
  readonly eye: Eye;
  readonly notes: string;
  readonly config: ExaminationConfig | null;
  /** The worklist step it was queued for (issue 29), when it was. */
  readonly order?: Order;
}

const storedOf = (e: Examination): Stored => ({ eye: e.eye, notes: e.notes, config: e.config, ...(e.order ? { order: e.order } : {}) });

const columns =
  "e.id, e.patient_id, e.appointment_id, e.device_sn, e.position, e.type, e.body, e.result, e.taken_at, e.created_at, e.updated_at, e.trashed_at";

export const toExamination = (r: Row): Examination => {
  const body = r.body as Stored;
  return {
    id: r.id as string,
    patientId: r.patient_id as string,
    type: r.type as TestType,
    eye: body.eye,
    notes: body.notes,
    // 'taken' is its own column: an acuity or colour examination taken before their results were modelled has none.
    taken: r.taken_at !== null && r.taken_at !== undefined,
    appointmentId: (r.appointment_id as string | null) ?? null,
    deviceSn: (r.device_sn as string | null) ?? null,
    result: (r.result as ExaminationResult | null) ?? null,
    config: body.config,
    ...(body.order ? { order: body.order } : {}),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    trashedAt: (r.trashed_at as string | null) ?? null,
  };
};

export const getExamination = async (q: Queryable, org: string, id: string): Promise<Examination | undefined> => {
  const rows = await q.query(`select ${columns} from examinations e where e.organisation_id = $1 and e.id = $2`, [org, id]);
  return rows[0] ? toExamination(rows[0]) : undefined;
};

export const examinationsOfAppointment = async (q: Queryable, appointmentId: string): Promise<Examination[]> =>
  (
    await q.query(
      `select ${columns} from examinations e where e.appointment_id = $1 and e.trashed_at is null order by e.position, e.created_at, e.id`,
      [appointmentId],
    )
  ).map(toExamination);

/** The examinations of several appointments in one query, by appointment, in run order. */
export const examinationsOfAppointments = async (
  q: Queryable,
  appointmentIds: ReadonlyArray<string>,
): Promise<Map<string, Examination[]>> => {
  const out = new Map<string, Examination[]>();
  if (appointmentIds.length === 0) return out;
  const rows = await q.query(
    `select ${columns} from examinations e where e.appointment_id = any($1::text[]) and e.trashed_at is null order by e.appointment_id, e.position, e.created_at, e.id`,
    [[...appointmentIds]],
  );
  for (const r of rows) {
    const id = r.appointment_id as string;
    out.set(id, [...(out.get(id) ?? []), toExamination(r)]);
  }
  return out;
};

export interface ExaminationFilter {
  readonly patientId?: string | undefined;
  readonly taken?: boolean | undefined;
  readonly type?: TestType | undefined;
}

export const listExaminations = async (q: Queryable, org: string, f: ExaminationFilter): Promise<Examination[]> => {
  // Examinations of a trashed appointment or patient are in the bin with it.
  const where = [
    "e.organisation_id = $1",
    "e.trashed_at is null",
    "not exists (select 1 from appointments a where a.id = e.appointment_id and a.trashed_at is not null)",
    "not exists (select 1 from patients p where p.id = e.patient_id and p.trashed_at is not null)",
  ];
  const params: unknown[] = [org];
  if (f.patientId !== undefined) {
    params.push(f.patientId);
    where.push(`e.patient_id = $${params.length}`);
  }
  if (f.taken !== undefined) where.push(f.taken ? "e.taken_at is not null" : "e.taken_at is null");
  if (f.type !== undefined) {
    params.push(f.type);
    where.push(`e.type = $${params.length}`);
  }
  return (
    await q.query(
      `select ${columns} from examinations e where ${where.join(" and ")} order by coalesce(e.taken_at, e.created_at) desc, e.id`,
      params,
    )
  ).map(toExamination);
};

export const insertExamination = async (q: Queryable, org: string, e: Examination, position: number) => {
  const body = storedOf(e);
  await q.query(
    `insert into examinations (id, organisation_id, patient_id, appointment_id, device_sn, position, type, body, result, taken_at, created_at, updated_at, trashed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      e.id,
      org,
      e.patientId,
      e.appointmentId,
      e.deviceSn,
      position,
      e.type,
      JSON.stringify(body),
      e.result ? JSON.stringify(e.result) : null,
      e.result ? e.result.takenAt : null,
      e.createdAt,
      e.updatedAt,
      e.trashedAt,
    ],
  );
};

/** Writes `e` back. `takenAt` marks it taken (a result's takenAt wins); an already taken one stays taken. */
export const saveExamination = async (q: Queryable, org: string, e: Examination, takenAt: string | null = null) => {
  const body = storedOf(e);
  await q.query(
    `update examinations set patient_id = $3, type = $4, device_sn = $5, body = $6, result = $7,
       taken_at = case when $8::text is not null then $8::text when $11::boolean then taken_at else null end, updated_at = $9, trashed_at = $10
     where organisation_id = $1 and id = $2`,
    [
      org,
      e.id,
      e.patientId,
      e.type,
      e.deviceSn,
      JSON.stringify(body),
      e.result ? JSON.stringify(e.result) : null,
      e.result ? e.result.takenAt : takenAt,
      e.updatedAt,
      e.trashedAt,
      e.taken,
    ],
  );
};

export const setExaminationPosition = async (q: Queryable, id: string, position: number) => {
  await q.query("update examinations set position = $2 where id = $1", [id, position]);
};

export const deleteExamination = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from examinations where organisation_id = $1 and id = $2", [org, id]);
};
