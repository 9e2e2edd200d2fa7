// bench:home's reckoning, from the database itself: every result a home headset made is looked for among the stored
// stand-alone results (by serial and resultId: stored, or lost), and the stored rows are counted per result (a
// resultId stored twice, or a measurement of the same headset, eye and moment stored twice: doubled).
import pg from "pg";

export interface Reckoning {
  readonly made: number;
  readonly uploaded: number;
  /** Acknowledged by the server without being stored (a result for a session not due): refused, not lost. */
  readonly refused: number;
  readonly lost: number;
  /** Home results stored for these headsets' programmes (one per programme, session and eye). */
  readonly homeResults: number;
  /** Rows beyond the first per result: standalone_results per (serial, resultId) and measurements per (serial, eye, takenAt). */
  readonly doubled: number;
  /** Stored rows of these headsets that none of them made (none expected). */
  readonly unknown: number;
}

/** `made` maps each serial to the resultIds its headset made; `refused` holds `${serial}\u0000${resultId}` of those the
 * server acknowledged without storing. */
export const reckon = async (
  databaseUrl: string,
  made: ReadonlyMap<string, readonly string[]>,
  refused: ReadonlySet<string>,
): Promise<Reckoning> => {
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
    const homeResults = Number(
      (await c.query<{ n: string }>("select count(*) as n from home_results where device_sn = any($1)", [serials])).rows[0]!.n,
    );
    let count = 0;
    let uploaded = 0;
    let refusedCount = 0;
    const mine = new Set<string>();
    for (const [sn, ids] of made)
      for (const id of ids) {
        count++;
        mine.add(`${sn}\u0000${id}`);
        if (stored.has(`${sn}\u0000${id}`)) uploaded++;
        else if (refused.has(`${sn}\u0000${id}`)) refusedCount++;
      }
    return {
      made: count,
      uploaded,
      refused: refusedCount,
      lost: count - uploaded - refusedCount,
      homeResults,
      doubled: doubledIds + doubledMeasurements,
      unknown: [...stored].filter((k) => !mine.has(k)).length,
    };
  } finally {
    await c.end();
  }
};
