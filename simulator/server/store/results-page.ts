import type { Measurement } from "../../../core/model/measurement.ts";
import type { Patient } from "../../../core/model/patient.ts";
import type { PerimetryPageFilter } from "../../../core/model/contract/index.ts";
import type { Queryable } from "../db/database.ts";
import { toMeasurement } from "./measurements.ts";
import { toPatient } from "./patients.ts";

// The organisation's results a page at a time (perimetry/page): measurements with a result, outside the bin, of
// patients outside the bin, ordered by (patient_id, taken_at, id) in byte order. Keyset paging: a page continues after the last
// row of the previous one, a range scan of the index measurements_results_page (migration 003), never an OFFSET.

/** Where a page continues: the (patient_id, taken_at, id) of the previous page's last result. */
export type ResultsCursor = readonly [patientId: string, takenAt: string, id: string];

export const encodeCursor = (c: ResultsCursor): string => Buffer.from(JSON.stringify(c), "utf8").toString("base64url");

const storable = /^[^\u0000\ud800-\udfff]*$/;

/** The cursor `encodeCursor` made, or undefined for anything else. */
export const decodeCursor = (text: string): ResultsCursor | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  return Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "string" && storable.test(v))
    ? (value as unknown as ResultsCursor)
    : undefined;
};

/** The conditions every page and the total share; parameters from $2 on ($1 is the organisation). */
const conditions = (filter: PerimetryPageFilter, params: unknown[]) => {
  const where = ["m.organisation_id = $1", "m.result is not null", "m.trashed_at is null", "p.trashed_at is null"];
  if (filter.pattern !== null) {
    params.push(String(filter.pattern));
    where.push(`m.result->>'pattern' = $${params.length}`);
  }
  if (filter.eye !== null) {
    params.push(String(filter.eye));
    where.push(`m.result->>'eye' = $${params.length}`);
  }
  // The UTC day of the instant (takenAt may carry any offset), compared as a date.
  const day = "((m.taken_at::timestamptz) at time zone 'UTC')::date";
  if (filter.from !== null) {
    params.push(filter.from);
    where.push(`${day} >= $${params.length}::date`);
  }
  if (filter.to !== null) {
    params.push(filter.to);
    where.push(`${day} <= $${params.length}::date`);
  }
  return where;
};

export interface ResultsPage {
  readonly entries: Measurement[];
  readonly patients: Patient[];
  readonly next: ResultsCursor | null;
}

export const resultsPage = async (
  q: Queryable,
  org: string,
  filter: PerimetryPageFilter,
  after: ResultsCursor | null,
  quantity: number,
): Promise<ResultsPage> => {
  const params: unknown[] = [org];
  const where = conditions(filter, params);
  if (after) {
    params.push(after[0], after[1], after[2]);
    const n = params.length;
    where.push(`(m.patient_id collate "C", m.taken_at collate "C", m.id collate "C") > ($${n - 2}, $${n - 1}, $${n})`);
  }
  params.push(quantity + 1); // one more than asked: whether a next page exists, without counting
  const rows = await q.query(
    `select m.id, m.patient_id, m.device_sn, m.body, m.result, m.created_at, m.updated_at, m.trashed_at, m.taken_at
     from measurements m join patients p on p.id = m.patient_id
     where ${where.join(" and ")}
     order by m.patient_id collate "C", m.taken_at collate "C", m.id collate "C"
     limit $${params.length}`,
    params,
  );
  const more = rows.length > quantity;
  const page = more ? rows.slice(0, quantity) : rows;
  const ids = [...new Set(page.map((r) => r.patient_id as string))];
  const patientRows = ids.length
    ? await q.query(
        `select id, name, birthdate, body, created_at, updated_at, trashed_at from patients where organisation_id = $1 and id = any($2::text[])`,
        [org, ids],
      )
    : [];
  const byId = new Map(patientRows.map((r) => [r.id as string, toPatient(r)]));
  const last = page[page.length - 1];
  return {
    entries: page.map(toMeasurement),
    patients: ids.map((id) => byId.get(id)!),
    next: more && last ? [last.patient_id as string, last.taken_at as string, last.id as string] : null,
  };
};

/** How many results and patients the whole selection has (the first page's `total`). */
export const resultsTotal = async (q: Queryable, org: string, filter: PerimetryPageFilter) => {
  const params: unknown[] = [org];
  const where = conditions(filter, params);
  const rows = await q.query<{ results: number; patients: number }>(
    `select count(*)::int as results, count(distinct m.patient_id)::int as patients
     from measurements m join patients p on p.id = m.patient_id where ${where.join(" and ")}`,
    params,
  );
  return { results: Number(rows[0]?.results ?? 0), patients: Number(rows[0]?.patients ?? 0) };
};
