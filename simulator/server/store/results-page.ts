import type { PerimetryPageFilter } from "../../../core/model/contract/index.ts";
import type { Queryable, Row } from "../db/database.ts";
import { toPatient } from "./patients.ts";

// The organisation's results a page at a time (perimetry/page): measurements with a result and taken perimetry
// examinations (appointment variant), outside the bin, of patients (and appointments) outside the bin, as examination/all
// lists them, ordered together by (patient_id, taken_at, id) in byte order. Keyset paging: a page continues after the
// last row of the previous one, whichever kind it was, a range scan of the indexes measurements_results_page (migration
// 003) and examinations_results_page (005), merged; never an OFFSET. Pages are answered as JSON text
// (../http/pre-encoded.ts): measurements are written as toMeasurement shapes them, examinations as toExamination does.
// Ids are UUIDs, unique across both tables, so the triple orders every result once.

/** Where a page continues: the (patient_id, taken_at, id) of the previous page's last result. */
export type ResultsCursor = readonly [patientId: string, takenAt: string, id: string];

export const encodeCursor = (c: ResultsCursor): string => Buffer.from(JSON.stringify(c), "utf8").toString("base64url");

// biome-ignore lint/suspicious/noControlCharactersInRegex: a cursor must hold no NUL, which PostgreSQL cannot store
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

/** The filter's conditions on a table aliased `t`; parameters from $2 on ($1 is the organisation), pushed once for both kinds. */
const filterConditions = (filter: PerimetryPageFilter, params: unknown[]) => {
  const where: Array<(t: string) => string> = [];
  if (filter.pattern !== null) {
    params.push(String(filter.pattern));
    const n = params.length;
    where.push((t) => `${t}.result_pattern = $${n}`); // result->>'pattern', kept beside the result (migration 013)
  }
  if (filter.eye !== null) {
    params.push(String(filter.eye));
    const n = params.length;
    where.push((t) => `${t}.result_eye = $${n}`); // result->>'eye' (013)
  }
  // The UTC day of the instant (takenAt may carry any offset), compared as a date.
  const day = (t: string) => `((${t}.taken_at::timestamptz) at time zone 'UTC')::date`;
  if (filter.from !== null) {
    params.push(filter.from);
    const n = params.length;
    where.push((t) => `${day(t)} >= $${n}::date`);
  }
  if (filter.to !== null) {
    params.push(filter.to);
    const n = params.length;
    where.push((t) => `${day(t)} <= $${n}::date`);
  }
  return where;
};

/** The conditions every page and the total share, per kind: measurements `m`, examinations `e` (each joined to patients `p`). */
const conditions = (filter: PerimetryPageFilter, params: unknown[]) => {
  const common = filterConditions(filter, params);
  return {
    measurements: [
      "m.organisation_id = $1",
      "m.result is not null",
      "m.trashed_at is null",
      "p.trashed_at is null",
      ...common.map((c) => c("m")),
    ],
    // As examination/all with taken and type perimetry: also out of the bin with a trashed appointment. The literal
    // type and these conditions match the partial index examinations_results_page.
    examinations: [
      "e.organisation_id = $1",
      "e.type = 'perimetry'",
      "e.result is not null",
      "e.taken_at is not null",
      "e.trashed_at is null",
      "p.trashed_at is null",
      "not exists (select 1 from appointments a where a.id = e.appointment_id and a.trashed_at is not null)",
      ...common.map((c) => c("e")),
    ],
  };
};

export interface ResultsPageJson {
  /** JSON text of the entries array, each a Measurement in the contract's wire form. */
  readonly entries: string;
  /** JSON text of the examinations array, each an Examination in the contract's wire form. */
  readonly examinations: string;
  /** JSON text of the patients array (each entry's patient once, in the entries' order). */
  readonly patients: string;
  /** The ids of those patients (the audit trail records whose data the page carried). */
  readonly patientIds: readonly string[];
  readonly next: ResultsCursor | null;
}

const str = JSON.stringify;
const orNull = (v: unknown) => (v === null || v === undefined ? "null" : str(v));

/**
 * A measurement as toMeasurement gives it, written straight from the row: the stored body's fields (the jsonb as
 * PostgreSQL prints it), then the columns (which win, as in toMeasurement; the body never holds them), the result
 * as stored. No JSON.parse and JSON.stringify round trip of the result, the bulk of each entry.
 */
const measurementJson = (r: Row): string => {
  const body = (r.body_json as string).trim();
  const fields = body.slice(1, -1).trim();
  return (
    `{${fields}${fields === "" ? "" : ","}"id":${str(r.id)},"patientId":${str(r.patient_id)},"deviceSn":${orNull(r.device_sn)},` +
    `"result":${r.result_json as string},"createdAt":${str(r.created_at)},"updatedAt":${str(r.updated_at)},"trashedAt":${orNull(r.trashed_at)}}`
  );
};

/** An examination as toExamination gives it, written straight from the row (the result as stored, like measurementJson). */
const examinationJson = (r: Row): string => {
  const body = JSON.parse(r.body_json as string) as { eye: unknown; notes: unknown; config: unknown; order?: unknown };
  return (
    `{"id":${str(r.id)},"patientId":${str(r.patient_id)},"type":${str(r.type)},"eye":${str(body.eye)},"notes":${str(body.notes)},` +
    `"taken":true,"appointmentId":${orNull(r.appointment_id)},"deviceSn":${orNull(r.device_sn)},"result":${r.result_json as string},` +
    `"config":${orNull(body.config)},${body.order ? `"order":${str(body.order)},` : ""}"createdAt":${str(r.created_at)},"updatedAt":${str(r.updated_at)},"trashedAt":${orNull(r.trashed_at)}}`
  );
};

/**
 * One page as JSON text: the jsonb columns come as text (::text, and the result as printed when it was written:
 * result_text, migration 004), so neither driver parses them.
 */
export const resultsPageJson = async (
  q: Queryable,
  org: string,
  filter: PerimetryPageFilter,
  after: ResultsCursor | null,
  quantity: number,
): Promise<ResultsPageJson> => {
  const params: unknown[] = [org];
  const where = conditions(filter, params);
  if (after) {
    params.push(after[0], after[1], after[2]);
    const n = params.length;
    const past = (t: string) =>
      `(${t}.patient_id collate "C", ${t}.taken_at collate "C", ${t}.id collate "C") > ($${n - 2}, $${n - 1}, $${n})`;
    where.measurements.push(past("m"));
    where.examinations.push(past("e"));
  }
  params.push(quantity + 1); // one more than asked: whether a next page exists, without counting
  const limit = `$${params.length}`;
  const order = (t: string) => `${t}.patient_id collate "C", ${t}.taken_at collate "C", ${t}.id collate "C"`;
  // The patient's columns ride along on every row (the join is there anyway): one query a page. Each kind is a range
  // scan of its own index, limited alike; the outer query merges the two.
  const patientColumns = `p.name as p_name, p.birthdate as p_birthdate, p.body::text as p_body, p.created_at as p_created_at, p.updated_at as p_updated_at`;
  const rows = await q.query(
    `select * from (
       (select 'm' as kind, m.id, m.patient_id, m.device_sn, m.body::text as body_json, m.result_text as result_json, m.created_at,
          m.updated_at, m.trashed_at, m.taken_at, null::text as type, null::text as appointment_id, ${patientColumns}
        from measurements m join patients p on p.id = m.patient_id
        where ${where.measurements.join(" and ")}
        order by ${order("m")} limit ${limit})
       union all
       (select 'e' as kind, e.id, e.patient_id, e.device_sn, e.body::text as body_json, e.result_text as result_json, e.created_at,
          e.updated_at, e.trashed_at, e.taken_at, e.type, e.appointment_id, ${patientColumns}
        from examinations e join patients p on p.id = e.patient_id
        where ${where.examinations.join(" and ")}
        order by ${order("e")} limit ${limit})
     ) r
     order by ${order("r")}
     limit ${limit}`,
    params,
  );
  const more = rows.length > quantity;
  const page = more ? rows.slice(0, quantity) : rows;
  const patients: string[] = [];
  const patientIds: string[] = [];
  let previous: unknown;
  for (const r of page)
    if (r.patient_id !== previous) {
      // Rows come by patient, so a patient's rows are consecutive: each patient once, in the entries' order.
      previous = r.patient_id;
      const patient = toPatient({
        id: r.patient_id,
        name: r.p_name,
        birthdate: r.p_birthdate,
        body: JSON.parse(r.p_body as string),
        created_at: r.p_created_at,
        updated_at: r.p_updated_at,
        trashed_at: null,
      });
      patients.push(str(patient));
      patientIds.push(r.patient_id as string);
    }
  const last = page[page.length - 1];
  return {
    entries: `[${page
      .filter((r) => r.kind === "m")
      .map(measurementJson)
      .join(",")}]`,
    examinations: `[${page
      .filter((r) => r.kind === "e")
      .map(examinationJson)
      .join(",")}]`,
    patients: `[${patients.join(",")}]`,
    patientIds,
    next: more && last ? [last.patient_id as string, last.taken_at as string, last.id as string] : null,
  };
};

/** How many results and patients the whole selection has (the first page's `total`). */
export const resultsTotal = async (q: Queryable, org: string, filter: PerimetryPageFilter) => {
  const params: unknown[] = [org];
  const where = conditions(filter, params);
  const rows = await q.query<{ results: number; patients: number }>(
    `select count(*)::int as results, count(distinct r.patient_id)::int as patients from (
       select m.patient_id from measurements m join patients p on p.id = m.patient_id where ${where.measurements.join(" and ")}
       union all
       select e.patient_id from examinations e join patients p on p.id = e.patient_id where ${where.examinations.join(" and ")}
     ) r`,
    params,
  );
  return { results: Number(rows[0]?.results ?? 0), patients: Number(rows[0]?.patients ?? 0) };
};
