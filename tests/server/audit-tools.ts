import type { Database } from "../../simulator/server/db/database.ts";

// Tampering with the audit trail as a database administrator would (issue 33: the attacker tests and verify's tests).

/** Runs `sql` with the append-only trigger off, as an administrator with the database's owner role can. */
export const asAdministrator = async (db: Database, sql: string, params: unknown[] = []) => {
  await db.exec("alter table audit_events disable trigger audit_events_no_change");
  try {
    await db.query(sql, params);
  } finally {
    await db.exec("alter table audit_events enable trigger audit_events_no_change");
  }
};
