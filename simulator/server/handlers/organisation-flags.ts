import type { Queryable } from "../db/database.ts";

/** The organisation's multi-tests (appointments) switch. */
export const multiTestsOf = async (q: Queryable, org: string): Promise<boolean> =>
  (await q.query<{ multi_tests: boolean }>("select multi_tests from organisations where id = $1", [org]))[0]?.multi_tests ?? false;
