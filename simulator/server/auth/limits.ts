import type { Database } from "../db/database.ts";

// Attempt limits kept in the database (issue 15 §3), so every server process on it counts together and a restart
// forgets nothing. An attempt is taken before the work it guards (a password check, a reset e-mail): the upsert locks
// the key's row, so concurrent attempts get 1, 2, 3, ... and only the allowed number go on to be checked. A login that
// succeeds gives its attempt back (successful logins do not count).

export interface Limit {
  readonly allowed: number;
  readonly windowMs: number;
}

export const attemptLimits = (db: Database) => ({
  /** Counts one attempt on `key`; true while the window's attempts are within `limit.allowed`. */
  async take(key: string, limit: Limit, nowMs: number): Promise<boolean> {
    const rows = await db.transaction((tx) =>
      tx.query<{ attempts: number }>(
        `insert into auth_limits (key, window_start, attempts) values ($1, $2::bigint, 1)
         on conflict (key) do update set
           attempts = case when auth_limits.window_start <= $2::bigint - $3::bigint then 1 else auth_limits.attempts + 1 end,
           window_start = case when auth_limits.window_start <= $2::bigint - $3::bigint then $2::bigint else auth_limits.window_start end
         returning attempts`,
        [key, nowMs, limit.windowMs],
      ),
    );
    return Number(rows[0]!.attempts) <= limit.allowed;
  },
  /** Gives back an attempt that turned out well. */
  async giveBack(key: string): Promise<void> {
    await db.transaction((tx) => tx.query("update auth_limits set attempts = greatest(attempts - 1, 0) where key = $1", [key]));
  },
});

export type AttemptLimits = ReturnType<typeof attemptLimits>;
