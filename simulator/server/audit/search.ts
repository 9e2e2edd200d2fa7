import type { AuditActorKind, AuditEntry, AuditFilter } from "../../../core/model/audit.ts";
import type { Queryable, Row } from "../db/database.ts";

// Reading the audit trail (issue 15 §6): one organisation's events, newest first, filtered by day, user, patient and
// action, a page at a time with the total.

const toEntry = (r: Row): AuditEntry => ({
  id: Number(r.id),
  at: r.at as string,
  actorKind: r.actor_kind as AuditActorKind,
  actorId: (r.actor_id as string | null) ?? null,
  actorName: (r.actor_name as string | null) ?? null,
  address: (r.address as string | null) ?? null,
  action: r.action as string,
  outcome: r.outcome as string,
  patientId: (r.patient_id as string | null) ?? null,
  recordType: (r.record_type as string | null) ?? null,
  recordId: (r.record_id as string | null) ?? null,
  note: (r.note as string | null) ?? null,
});

export const searchTrail = async (
  db: Queryable,
  organisationId: string,
  filter: AuditFilter,
  page: number,
  quantity: number,
): Promise<{ entries: AuditEntry[]; total: number }> => {
  const where = `organisation_id = $1
    and ($2::text is null or at >= $2) and ($3::text is null or at < $3)
    and ($4::text is null or (actor_kind = 'user' and actor_id = $4))
    and ($5::text is null or patient_id = $5) and ($6::text is null or action = $6)`;
  // Days are UTC; `to` is inclusive, so up to the start of the next day.
  const next = filter.to ? new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + 86_400_000).toISOString() : null;
  const params = [
    organisationId,
    filter.from ? `${filter.from}T00:00:00.000Z` : null,
    next,
    filter.userId,
    filter.patientId,
    filter.action,
  ];
  const total = Number((await db.query<{ n: number }>(`select count(*) as n from audit_events where ${where}`, params))[0]!.n);
  const rows = await db.query(`select * from audit_events where ${where} order by id desc limit $7 offset $8`, [
    ...params,
    quantity,
    page * quantity,
  ]);
  return { entries: rows.map(toEntry), total };
};
