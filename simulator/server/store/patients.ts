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

/**
 * How far past a page the search counts matches: `remaining` is exact when fewer follow, else this many ("at least").
 * Paging only asks whether remaining > 0 (scheduling §10), so counting every match of a short text over a large
 * clinic would be work nobody reads.
 */
export const REMAINING_COUNTED_UP_TO = 100;

/**
 * Active patients whose name or unique id contains the text (case-insensitive), on the birthdate when given, in name
 * order. One statement the planner serves from indexes (migration 009). A text with three letters or digits in a row
 * has trigrams: its matches come from the trigram index and only they are sorted (the subquery with `offset 0` keeps
 * the planner from walking the name order instead, which is slow when the matches cluster there, as first names do;
 * only ids and names are sorted, the page's 20 or so patients are read whole after).
 * A shorter text matches many patients: the walk in name order stops after the page. The matches after the page are
 * counted without order and only up to REMAINING_COUNTED_UP_TO (an uncorrelated subquery, run once, only when the
 * page has rows).
 */
/** pg_trgm indexes runs of letters and digits; a text without three in a row gives the index nothing to look up. */
const hasTrigram = (text: string) => /[\p{L}\p{N}]{3}/u.test(text);

export const searchPatients = async (q: Queryable, org: string, s: PatientSearch) => {
  const where = ["organisation_id = $1", "trashed_at is null"];
  const params: unknown[] = [org];
  if (s.name && s.name.trim() !== "") {
    params.push(
      `%${s.name
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => "\\" + c)}%`,
    );
    where.push(`search like $${params.length}`);
  }
  if (s.birthdate) {
    params.push(s.birthdate);
    where.push(`birthdate = $${params.length}`);
  }
  const skipped = (s.page - 1) * s.quantity;
  params.push(s.quantity, skipped, skipped + s.quantity + REMAINING_COUNTED_UP_TO);
  const [limit, offset, countUpTo] = [params.length - 2, params.length - 1, params.length];
  const matches = `from patients where ${where.join(" and ")}`;
  const candidates = hasTrigram(s.name ?? "") ? `from (select id, name ${matches} offset 0) trigram_hits` : matches;
  // The page's ids first (sorting narrow rows), then its patients.
  const rows = await q.query(
    `select ${columns}, (select count(*) from (select 1 ${matches} limit $${countUpTo}) upto) as counted
     from (select id, lower(name) as sort_key ${candidates} order by sort_key, id limit $${limit} offset $${offset}) page
     join patients using (id) order by page.sort_key, page.id`,
    params,
  );
  const counted = Number(rows[0]?.counted ?? 0);
  const entries = rows.map(toPatient);
  const remaining = Math.min(REMAINING_COUNTED_UP_TO, Math.max(0, counted - skipped - entries.length));
  return { entries, remaining, page: s.page };
};

export const insertPatient = async (q: Queryable, org: string, id: string, fields: PatientFields, now: string) => {
  await q.query(
    "insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7)",
    [id, org, fields.name, fields.birthdate, bodyOf(fields), searchText(fields), now],
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
