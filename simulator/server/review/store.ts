import type { ReviewCounts, ReviewFlag, ReviewFlagKind, ReviewItemView, ReviewState } from "../../../core/model/contract/index.ts";
import { REVIEW_FLAG_KINDS } from "../../../core/model/contract/index.ts";
import { type Repeat, repeatIndex, repeatState } from "../../../core/home/index.ts";
import { clinicTime } from "../../../core/model/clinic-time.ts";
import type { Eye } from "../../../core/model/enums.ts";
import type { Queryable, Row } from "../db/database.ts";

// review_items (migration 021): one per home result and one per missed session. need_rank is the first flag's place in
// core/home's FLAG_ORDER (unflagged: after all), so the queue is read in orderByNeed's order straight from the index:
// first flag, more flags first, oldest first, then id. Our choice: an item whose triage failed ranks with the
// unreliable ones (rank 0): nothing vouches for the result until a clinician has read it.

export const UNFLAGGED_RANK = REVIEW_FLAG_KINDS.length;
export const rankOf = (flags: readonly ReviewFlag[], failed: boolean): number =>
  failed ? 0 : flags.length === 0 ? UNFLAGGED_RANK : REVIEW_FLAG_KINDS.indexOf(flags[0]!.kind);

// The item's repeat (migration 022) with the results that filled its slot (session index -number) and the programme's
// zone: its state is core/home's repeatState on the clinic's today.
const columns = `r.*, p.name as patient_name, hp.time_zone as programme_zone, rp.number as repeat_number, rp.eyes as repeat_eyes,
  rp.from_date as repeat_from, rp.to_date as repeat_to,
  (select coalesce(jsonb_agg(hr.eye), '[]'::jsonb) from home_results hr
    where hr.programme_id = r.programme_id and hr.session_index = -rp.number) as repeat_filled`;
const from = `review_items r join patients p on p.organisation_id = r.organisation_id and p.id = r.patient_id
  join home_programmes hp on hp.id = r.programme_id left join home_repeats rp on rp.review_item_id = r.id`;

const repeatOf = (r: Row, now: string): ReviewItemView["repeat"] => {
  if (r.repeat_number === null || r.repeat_number === undefined) return null;
  const repeat: Repeat = {
    number: r.repeat_number as number,
    eyes: r.repeat_eyes as Eye[],
    from: r.repeat_from as string,
    to: r.repeat_to as string,
  };
  const slots = (r.repeat_filled as Eye[]).map((eye) => ({ index: repeatIndex(repeat.number), eye }));
  const today = clinicTime(now, r.programme_zone as string).date;
  return { state: repeatState(repeat, slots, today), from: repeat.from, to: repeat.to };
};

const toItem = (r: Row, now: string): ReviewItemView => ({
  id: r.id as string,
  kind: r.kind as ReviewItemView["kind"],
  patient: { id: r.patient_id as string, name: r.patient_name as string },
  programmeId: r.programme_id as string,
  measurementId: (r.measurement_id as string | null) ?? null,
  eye: (r.eye as Eye | null) ?? null,
  takenAt: r.taken_at as string,
  session:
    r.session_index === null || r.session_index === undefined
      ? null
      : { index: r.session_index as number, from: r.session_from as string, to: r.session_to as string },
  flags: r.flags as ReviewFlag[],
  triage: r.triage as ReviewItemView["triage"],
  state: r.state as ReviewState,
  note: (r.note as string | null) ?? null,
  reviewedBy: (r.reviewed_by as string | null) ?? null,
  reviewedAt: (r.reviewed_at as string | null) ?? null,
  repeatRequestedAt: (r.repeat_requested_at as string | null) ?? null,
  repeat: repeatOf(r, now),
  bookedMeasurementIds: r.booked_measurement_ids as string[],
  createdAt: r.created_at as string,
});

export interface NewItem {
  readonly id: string;
  readonly organisationId: string;
  readonly patientId: string;
  readonly programmeId: string;
  readonly measurementId: string | null;
  readonly eye: Eye | null;
  readonly takenAt: string;
  readonly session: { readonly index: number; readonly from: string; readonly to: string } | null;
  readonly flags: readonly ReviewFlag[];
  readonly failed: boolean;
  readonly createdAt: string;
}

/** Inserts the item unless one exists for its result or missed session; true when inserted. */
export const insertItem = async (q: Queryable, i: NewItem): Promise<boolean> =>
  (
    await q.query(
      `insert into review_items (id, organisation_id, patient_id, programme_id, kind, measurement_id, eye, taken_at,
         session_index, session_from, session_to, flags, need_rank, flag_count, triage, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) on conflict do nothing returning id`,
      [
        i.id,
        i.organisationId,
        i.patientId,
        i.programmeId,
        i.measurementId === null ? "missed" : "result",
        i.measurementId,
        i.eye,
        i.takenAt,
        i.session?.index ?? null,
        i.session?.from ?? null,
        i.session?.to ?? null,
        JSON.stringify(i.flags),
        rankOf(i.flags, i.failed),
        i.flags.length,
        i.failed ? "failed" : "done",
        i.createdAt,
      ],
    )
  ).length > 0;

/** `now`: the server's clock, for whether a repeat's window has closed. */
export const itemById = async (q: Queryable, org: string, id: string, now: string): Promise<ReviewItemView | undefined> => {
  const rows = await q.query(`select ${columns} from ${from} where r.organisation_id = $1 and r.id = $2`, [org, id]);
  return rows[0] ? toItem(rows[0], now) : undefined;
};

const flagged = (param: string) => `r.flags @> jsonb_build_array(jsonb_build_object('kind', ${param}::text))`;

export const queuePage = async (
  q: Queryable,
  org: string,
  filter: { readonly flag: ReviewFlagKind | null; readonly state: ReviewState; readonly page: number; readonly quantity: number },
  now: string,
): Promise<{ items: ReviewItemView[]; total: number }> => {
  const where = `r.organisation_id = $1 and r.state = $2 and ($3::text is null or ${flagged("$3")})`;
  const params = [org, filter.state, filter.flag];
  const [count] = await q.query<{ n: number }>(`select count(*)::int as n from review_items r where ${where}`, params);
  const rows = await q.query(
    `select ${columns} from ${from} where ${where}
     order by r.need_rank, r.flag_count desc, r.taken_at, r.id limit $4 offset $5`,
    [...params, filter.quantity, filter.page * filter.quantity],
  );
  return { items: rows.map((r) => toItem(r, now)), total: count?.n ?? 0 };
};

export const countsOf = async (q: Queryable, org: string): Promise<ReviewCounts> => {
  const kinds = REVIEW_FLAG_KINDS.map((k, i) => `count(*) filter (where ${flagged(`$${i + 2}`)})::int as "${k}"`).join(", ");
  const [row] = await q.query(
    `select ${kinds}, count(*) filter (where r.triage = 'failed')::int as "triageFailed"
     from review_items r where r.organisation_id = $1 and r.state = 'new'`,
    [org, ...REVIEW_FLAG_KINDS],
  );
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    unreliable: n("unreliable"),
    outlier: n("outlier"),
    progression: n("progression"),
    missed: n("missed"),
    triageFailed: n("triageFailed"),
  };
};

export type ItemChange =
  | { readonly kind: "mark"; readonly by: string; readonly at: string; readonly note: string | undefined }
  | { readonly kind: "note"; readonly note: string }
  | { readonly kind: "repeat"; readonly at: string }
  | { readonly kind: "book"; readonly measurementIds: readonly string[] };

/** Applies one clinician action; false when the item does not exist in the organisation. */
export const changeItem = async (q: Queryable, org: string, id: string, c: ItemChange): Promise<boolean> => {
  const [set, values]: [string, unknown[]] =
    c.kind === "mark"
      ? [
          `state = 'reviewed', reviewed_by = $3, reviewed_at = $4, note = coalesce($5, note)`,
          [c.by, c.at, c.note === undefined ? null : c.note || null],
        ]
      : c.kind === "note"
        ? [`note = $3`, [c.note.trim() === "" ? null : c.note]]
        : c.kind === "repeat"
          ? [`repeat_requested_at = coalesce(repeat_requested_at, $3)`, [c.at]]
          : [`booked_measurement_ids = booked_measurement_ids || $3::jsonb`, [JSON.stringify(c.measurementIds)]];
  const rows = await q.query(`update review_items set ${set} where organisation_id = $1 and id = $2 returning id`, [org, id, ...values]);
  return rows.length > 0;
};
