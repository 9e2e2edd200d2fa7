import type { Repeat } from "../../../core/home/index.ts";
import type { Eye } from "../../../core/model/enums.ts";
import type { Queryable, Row } from "../db/database.ts";

// A programme's repeats (migration 022; core/home/repeat.ts), each asked for on one review item.

const toRepeat = (r: Row): Repeat => ({
  number: r.number as number,
  eyes: r.eyes as Eye[],
  from: r.from_date as string,
  to: r.to_date as string,
});

/** The programme's repeats, the first first. */
export const repeatsOf = async (q: Queryable, programmeId: string): Promise<Repeat[]> =>
  (await q.query("select * from home_repeats where programme_id = $1 order by number", [programmeId])).map(toRepeat);

/** The repeat asked for on the item, if one was. */
export const repeatOfItem = async (q: Queryable, itemId: string): Promise<Repeat | undefined> => {
  const r = (await q.query("select * from home_repeats where review_item_id = $1", [itemId]))[0];
  return r && toRepeat(r);
};

/** Stores a repeat as the programme's next number (the item's unique key keeps one per item). */
export const insertRepeat = async (
  q: Queryable,
  r: { programmeId: string; itemId: string; eyes: readonly Eye[]; from: string; to: string; by: string; at: string },
): Promise<Repeat> => {
  const [row] = await q.query(
    `insert into home_repeats (programme_id, number, review_item_id, eyes, from_date, to_date, requested_by, requested_at)
     values ($1, (select coalesce(max(number), 0) + 1 from home_repeats where programme_id = $1), $2, $3, $4, $5, $6, $7)
     returning *`,
    [r.programmeId, r.itemId, JSON.stringify(r.eyes), r.from, r.to, r.by, r.at],
  );
  return toRepeat(row!);
};
