import type { Patient, PatientFields } from "../../../core/model/patient.ts";
import type { Queryable, Row } from "../db/database.ts";

// Patients: name and birthdate are columns (search filters on them); the other form fields live in body. The search
// itself is served from memory (patient-index.ts).

export const patientColumns = "id, name, birthdate, body, created_at, updated_at, trashed_at";
const columns = patientColumns;

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

export const insertPatient = async (q: Queryable, org: string, id: string, fields: PatientFields, now: string) => {
  await q.query(
    "insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7)",
    [id, org, fields.name, fields.birthdate, bodyOf(fields), searchText(fields), now],
  );
};

/** Several new patients in one statement (an import's call); nothing for an empty list. */
export const insertPatients = async (
  q: Queryable,
  org: string,
  patients: ReadonlyArray<{ id: string; fields: PatientFields }>,
  now: string,
) => {
  if (patients.length === 0) return;
  await q.query(
    `insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at)
     select i, $1, n, b, d::jsonb, s, $7, $7 from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as t(i, n, b, d, s)`,
    [
      org,
      patients.map((p) => p.id),
      patients.map((p) => p.fields.name),
      patients.map((p) => p.fields.birthdate),
      patients.map((p) => bodyOf(p.fields)),
      patients.map((p) => searchText(p.fields)),
      now,
    ],
  );
};

export const updatePatient = async (q: Queryable, org: string, id: string, fields: PatientFields, now: string) => {
  await q.query(
    "update patients set name = $3, birthdate = $4, body = $5, search = $6, updated_at = $7 where organisation_id = $1 and id = $2",
    [org, id, fields.name, fields.birthdate, bodyOf(fields), searchText(fields), now],
  );
};

export const setPatientTrashed = async (q: Queryable, org: string, id: string, trashedAt: string | null) => {
  await q.query("update patients set trashed_at = $3 where organisation_id = $1 and id = $2", [org, id, trashedAt]);
};

export const deletePatient = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from patients where organisation_id = $1 and id = $2", [org, id]);
};
