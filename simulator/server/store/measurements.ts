import type { Measurement, MeasurementBody } from "../../../core/model/measurement.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import type { Queryable, Row } from "../db/database.ts";

// Measurements (perimetry). patient_id, device_sn, queue_position, result and trashed_at are columns; the form's
// configuration and the flags live in body. A measurement is queued on its device while it has no result and neither
// it nor its patient is in the bin.

type Stored = Omit<Measurement, "id" | "patientId" | "deviceSn" | "createdAt" | "updatedAt" | "result" | "trashedAt">;

const columns = "m.id, m.patient_id, m.device_sn, m.body, m.result, m.created_at, m.updated_at, m.trashed_at";

export const toMeasurement = (r: Row): Measurement => ({
  ...(r.body as Stored),
  id: r.id as string,
  patientId: r.patient_id as string,
  deviceSn: (r.device_sn as string | null) ?? null,
  result: (r.result as MeasurementResult | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
  trashedAt: (r.trashed_at as string | null) ?? null,
});

const stored = (m: Measurement): Stored => {
  const { id: _i, patientId: _p, deviceSn: _d, createdAt: _c, updatedAt: _u, result: _r, trashedAt: _t, ...rest } = m;
  return rest;
};

/** `lock`: the row stays locked until the transaction ends (a concurrent writer of the same measurement waits, then
 * reads what this one committed). */
export const getMeasurement = async (q: Queryable, org: string, id: string, lock = false): Promise<Measurement | undefined> => {
  const rows = await q.query(
    `select ${columns} from measurements m where m.organisation_id = $1 and m.id = $2${lock ? " for update" : ""}`,
    [org, id],
  );
  return rows[0] ? toMeasurement(rows[0]) : undefined;
};

export const measurementsOfPatient = async (q: Queryable, org: string, patientId: string): Promise<Measurement[]> =>
  (
    await q.query(
      `select ${columns} from measurements m where m.organisation_id = $1 and m.patient_id = $2 and m.trashed_at is null
       order by coalesce(m.taken_at, m.created_at) desc, m.id`,
      [org, patientId],
    )
  ).map(toMeasurement);

/** The organisation's latest results (newest first), outside the bin, of patients outside the bin. */
export const recentResults = async (q: Queryable, org: string, limit: number): Promise<Measurement[]> =>
  (
    await q.query(
      `select ${columns} from measurements m join patients p on p.id = m.patient_id
       where m.organisation_id = $1 and m.result is not null and m.trashed_at is null and p.trashed_at is null
       order by m.taken_at desc, m.id limit $2`,
      [org, limit],
    )
  ).map(toMeasurement);

export const trashedMeasurements = async (q: Queryable, org: string): Promise<Measurement[]> =>
  (
    await q.query(
      `select ${columns} from measurements m where m.organisation_id = $1 and m.trashed_at is not null order by m.trashed_at desc, m.id`,
      [org],
    )
  ).map(toMeasurement);

/** The lane of a device: queued measurements, leftmost (next to run) first. */
export const queueOf = async (q: Queryable, org: string, deviceSn: string): Promise<Measurement[]> =>
  (
    await q.query(
      `select ${columns} from measurements m join patients p on p.id = m.patient_id
       where m.organisation_id = $1 and m.device_sn = $2 and m.result is null and m.trashed_at is null and p.trashed_at is null
       order by m.queue_position, m.created_at, m.id`,
      [org, deviceSn],
    )
  ).map(toMeasurement);

/** Every device lane of the organisation at once (device/all): one query whatever the number of devices. */
export const queuesOf = async (q: Queryable, org: string): Promise<Map<string, Measurement[]>> => {
  const lanes = new Map<string, Measurement[]>();
  const rows = await q.query(
    `select ${columns} from measurements m join patients p on p.id = m.patient_id
     where m.organisation_id = $1 and m.device_sn is not null and m.result is null and m.trashed_at is null and p.trashed_at is null
     order by m.device_sn, m.queue_position, m.created_at, m.id`,
    [org],
  );
  for (const r of rows) {
    const m = toMeasurement(r);
    lanes.set(m.deviceSn!, [...(lanes.get(m.deviceSn!) ?? []), m]);
  }
  return lanes;
};

export const nextQueuePosition = async (q: Queryable, deviceSn: string): Promise<number> =>
  ((await q.query<{ n: number | null }>("select max(queue_position) as n from measurements where device_sn = $1", [deviceSn]))[0]?.n ?? 0) +
  1;

export const insertMeasurement = async (q: Queryable, org: string, m: Measurement, queuePosition: number | null) => {
  await q.query(
    `insert into measurements (id, organisation_id, patient_id, device_sn, queue_position, body, result, taken_at, created_at, updated_at, trashed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      m.id,
      org,
      m.patientId,
      m.deviceSn,
      queuePosition,
      JSON.stringify(stored(m)),
      m.result ? JSON.stringify(m.result) : null,
      m.result?.takenAt ?? null,
      m.createdAt,
      m.updatedAt,
      m.trashedAt,
    ],
  );
};

/** Several measurements with their results and no lane (an import's call) in one statement; nothing for an empty list. */
export const insertMeasurements = async (q: Queryable, org: string, ms: readonly Measurement[]) => {
  if (ms.length === 0) return;
  await q.query(
    `insert into measurements (id, organisation_id, patient_id, device_sn, queue_position, body, result, taken_at, created_at, updated_at, trashed_at)
     select i, $1, p, d, null, b::jsonb, r::jsonb, t, c, u, x
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         as v(i, p, d, b, r, t, c, u, x)`,
    [
      org,
      ms.map((m) => m.id),
      ms.map((m) => m.patientId),
      ms.map((m) => m.deviceSn),
      ms.map((m) => JSON.stringify(stored(m))),
      ms.map((m) => (m.result ? JSON.stringify(m.result) : null)),
      ms.map((m) => m.result?.takenAt ?? null),
      ms.map((m) => m.createdAt),
      ms.map((m) => m.updatedAt),
      ms.map((m) => m.trashedAt),
    ],
  );
};

/** Writes every field of `m` back (config, flags, device, result); queue position is kept unless given. */
export const saveMeasurement = async (q: Queryable, org: string, m: Measurement, queuePosition?: number) => {
  await q.query(
    `update measurements set patient_id = $3, device_sn = $4, body = $5, result = $6, taken_at = $7, updated_at = $8, trashed_at = $9,
       queue_position = coalesce($10, queue_position)
     where organisation_id = $1 and id = $2`,
    [
      org,
      m.id,
      m.patientId,
      m.deviceSn,
      JSON.stringify(stored(m)),
      m.result ? JSON.stringify(m.result) : null,
      m.result?.takenAt ?? null,
      m.updatedAt,
      m.trashedAt,
      queuePosition ?? null,
    ],
  );
};

export const setQueuePosition = async (q: Queryable, id: string, deviceSn: string, position: number) => {
  await q.query("update measurements set device_sn = $2, queue_position = $3 where id = $1", [id, deviceSn, position]);
};

export const deleteMeasurement = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from measurements where organisation_id = $1 and id = $2", [org, id]);
};

export type { MeasurementBody };
