import type { Patient, PatientFields } from "../../../core/model/patient.ts";
import type { Queryable, Row } from "../db/database.ts";

// Patients: name and birthdate are columns (search filters on them); the other form fields live in body.

const columns = "id, name, birthdate, body, created_at, updated_at, trashed_at";

export const toPatient = (r: Row): Patient => {
  const body = r.body as Omit<PatientFields, "name" | "birthdate">;
  return {
    id: r.id as string,
    name: r.name as string,
    uniqueId: body.uniqueId,
    gender: body.gender,
    lang: body.lang,
    birthdate: r.birthdate as string,
    ...(body.address !== undefined ? { address: body.address } : {}),
    ...(body.city !== undefined ? { city: body.city } : {}),
    ...(body.zipcode !== undefined ? { zipcode: body.zipcode } : {}),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    trashedAt: (r.trashed_at as string | null) ?? null,
  };
};

const bodyOf = ({ name: _n, birthdate: _b, ...rest }: PatientFields) => JSON.stringify(rest);
const searchText = (f: PatientFields) => `${f.name} ${f.uniqueId}`.toLowerCase();

export const getPatient = async (q: Queryable, org: string, id: string): Promise<Patient | undefined> => {
  const rows = await q.query(`select ${columns} from patients where organisation_id = $1 and id = $2`, [org, id]);
  return rows[0] ? toPatient(rows[0]) : undefined;
};

export const listPatients = async (q: Queryable, org: string, trashed: boolean): Promise<Patient[]> =>
  (
    await q.query(
      `select ${columns} from patients where organisation_id = $1 and trashed_at is ${trashed ? "not null" : "null"} order by lower(name), id`,
      [org],
    )
  ).map(toPatient);

export interface PatientSearch {
  readonly name: string | null;
  readonly birthdate: string | null;
  /** 1-based page. */
  readonly page: number;
  readonly quantity: number;
}

/** Active patients whose name or unique id contains the text (case-insensitive), on the birthdate when given. */
export const searchPatients = async (q: Queryable, org: string, s: PatientSearch) => {
  const where = ["organisation_id = $1", "trashed_at is null"];
  const params: unknown[] = [org];
  if (s.name && s.name.trim() !== "") {
    params.push(`%${s.name.trim().toLowerCase().replace(/[\\%_]/g, (c) => "\\" + c)}%`);
    where.push(`search like $${params.length}`);
  }
  if (s.birthdate) {
    params.push(s.birthdate);
    where.push(`birthdate = $${params.length}`);
  }
  params.push(s.quantity, (s.page - 1) * s.quantity);
  // One statement: the page and, on each row, the number of all matches.
  const rows = await q.query(
    `select ${columns}, count(*) over () as total from patients where ${where.join(" and ")}
     order by lower(name), id limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  const total = Number(rows[0]?.total ?? 0);
  const entries = rows.map(toPatient);
  return { entries, remaining: Math.max(0, total - (s.page - 1) * s.quantity - entries.length), page: s.page };
};

export const insertPatient = async (q: Queryable, org: string, id: string, fields: PatientFields, now: string) => {
  await q.query(
    "insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7)",
    [id, org, fields.name, fields.birthdate, bodyOf(fields), searchText(fields), now],
  );
};

export const updatePatient = async (q: Queryable, org: string, id: string, fields: PatientFields, now: string) => {
  await q.query("update patients set name = $3, birthdate = $4, body = $5, search = $6, updated_at = $7 where organisation_id = $1 and id = $2", [
    org,
    id,
    fields.name,
    fields.birthdate,
    bodyOf(fields),
    searchText(fields),
    now,
  ]);
};

export const setPatientTrashed = async (q: Queryable, org: string, id: string, trashedAt: string | null) => {
  await q.query("update patients set trashed_at = $3 where organisation_id = $1 and id = $2", [org, id, trashedAt]);
};

export const deletePatient = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from patients where organisation_id = $1 and id = $2", [org, id]);
};
