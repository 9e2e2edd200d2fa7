import type { Queryable } from "../db/database.ts";

// The second factor's rows (migration 018): a user's sealed TOTP secret, their recovery codes' hashes, and whether
// the organisation requires a second factor. Every check-and-use is one conditional update, so two requests racing
// with the same code cannot both succeed.

export interface SecondFactorRow {
  readonly userId: string;
  readonly secretSealed: string;
  readonly confirmed: boolean;
  readonly lastStep: number | null;
}

export const secondFactorOf = async (q: Queryable, userId: string): Promise<SecondFactorRow | undefined> => {
  const row = (
    await q.query<{ user_id: string; secret_sealed: string; confirmed_at: string | null; last_step: string | number | null }>(
      "select user_id, secret_sealed, confirmed_at, last_step from second_factors where user_id = $1",
      [userId],
    )
  )[0];
  return row
    ? {
        userId: row.user_id,
        secretSealed: row.secret_sealed,
        confirmed: row.confirmed_at !== null,
        lastStep: row.last_step === null ? null : Number(row.last_step),
      }
    : undefined;
};

/** A new enrolment waiting for its first code; replaces one that was never confirmed, never a confirmed one. */
export const startEnrolment = async (q: Queryable, userId: string, secretSealed: string, nowIso: string): Promise<boolean> => {
  const rows = await q.query(
    `insert into second_factors (user_id, secret_sealed, confirmed_at, last_step, created_at) values ($1, $2, null, null, $3)
     on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, last_step = null, created_at = excluded.created_at
       where second_factors.confirmed_at is null
     returning user_id`,
    [userId, secretSealed, nowIso],
  );
  return rows.length === 1;
};

/**
 * Takes `step` as the last step used, when it is later than the one used before (no replay) and the factor is in the
 * state wanted (confirmed for a sign-in, unconfirmed for the first code of an enrolment, which confirms it).
 */
export const useStep = async (q: Queryable, userId: string, step: number, confirming: boolean, nowIso: string): Promise<boolean> => {
  const rows = await q.query(
    `update second_factors set last_step = $2, confirmed_at = coalesce(confirmed_at, $4)
     where user_id = $1 and (last_step is null or last_step < $2) and (confirmed_at is null) = $3
     returning user_id`,
    [userId, step, confirming, nowIso],
  );
  return rows.length === 1;
};

export const replaceRecoveryCodes = async (q: Queryable, userId: string, hashes: readonly string[]): Promise<void> => {
  await q.query("delete from recovery_codes where user_id = $1", [userId]);
  for (const hash of hashes) await q.query("insert into recovery_codes (user_id, code_hash) values ($1, $2)", [userId, hash]);
};

/** Uses a recovery code once: true only for an unused code of the user's. */
export const useRecoveryCode = async (q: Queryable, userId: string, hash: string, nowIso: string): Promise<boolean> =>
  (
    await q.query("update recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning user_id", [
      userId,
      hash,
      nowIso,
    ])
  ).length === 1;

export const recoveryCodesLeft = async (q: Queryable, userId: string): Promise<number> =>
  Number(
    (await q.query<{ n: string | number }>("select count(*) as n from recovery_codes where user_id = $1 and used_at is null", [userId]))[0]!
      .n,
  );

/** Removes the user's second factor and recovery codes. */
export const removeSecondFactor = async (q: Queryable, userId: string): Promise<void> => {
  await q.query("delete from recovery_codes where user_id = $1", [userId]);
  await q.query("delete from second_factors where user_id = $1", [userId]);
};

/** The organisation's users with a confirmed second factor, by e-mail, with their unused recovery codes. */
export const usersWithSecondFactor = async (q: Queryable, organisationId: string) =>
  (
    await q.query<{ id: string; email: string; left: string | number }>(
      `select u.id, u.email, (select count(*) from recovery_codes r where r.user_id = u.id and r.used_at is null) as left
       from users u join second_factors f on f.user_id = u.id
       where u.organisation_id = $1 and f.confirmed_at is not null order by u.email`,
      [organisationId],
    )
  ).map((r) => ({ id: r.id, email: r.email, recoveryCodesLeft: Number(r.left) }));

export const secondFactorRequired = async (q: Queryable, organisationId: string): Promise<boolean> =>
  (
    await q.query<{ second_factor_required: boolean }>("select second_factor_required from organisations where id = $1", [organisationId])
  )[0]?.second_factor_required ?? false;

export const setSecondFactorRequired = async (q: Queryable, organisationId: string, required: boolean): Promise<void> => {
  await q.query("update organisations set second_factor_required = $2 where id = $1", [organisationId, required]);
};
