// bench:home's reckoning, from the database itself: every result a home headset made is looked for among the stored
// stand-alone results (by serial and resultId: stored, or lost), and the stored rows are counted per result (a
// resultId stored twice, or a measurement of the same headset, eye and moment stored twice: doubled).
import pg from "pg";

export interface Reckoning {
  readonly made: number;
  readonly uploaded: number;
  readonly lost: number;
  /** Rows beyond the first per result: standalone_results per (serial, resultId) and measurements per (serial, eye, takenAt). */
  readonly doubled: number;
  /** Stored rows of these headsets that none of them made (none expected). */
  readonly unknown: number;
}

/** `made` maps each serial to the resultIds its headset made. */
export const reckon = async (databaseUrl: string, made: ReadonlyMap<string, readonly string[]>): Promise<Reckoning> => {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const serials = [...made.keys()];
    const rows = (
      await c.query<{ device_sn: string; result_id: string; n: string }>(
        "select device_sn, result_id, count(*) as n from standalone_results where device_sn = any($1) group by device_sn, result_id",
        [serials],
      )
    ).rows;
    const stored = new Set(rows.map((r) => `${r.device_sn}\u0000${r.result_id}`));
    const doubledIds = rows.reduce((s, r) => s + Number(r.n) - 1, 0);
    const doubledMeasurements = Number(
      (
        await c.query<{ extra: string }>(
          `select coalesce(sum(n - 1), 0) as extra from (
             select count(*) as n from measurements where device_sn = any($1) and result is not null
             group by device_sn, result->>'eye', result->>'takenAt') per_result`,
          [serials],
        )
      ).rows[0]!.extra,
    );
    let count = 0;
    let uploaded = 0;
    const mine = new Set<string>();
    for (const [sn, ids] of made)
      for (const id of ids) {
        count++;
        mine.add(`${sn}\u0000${id}`);
        if (stored.has(`${sn}\u0000${id}`)) uploaded++;
      }
    return {
      made: count,
      uploaded,
      lost: count - uploaded,
      doubled: doubledIds + doubledMeasurements,
      unknown: [...stored].filter((k) => !mine.has(k)).length,
    };
  } finally {
    await c.end();
  }
};
