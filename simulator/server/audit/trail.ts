import type { AuditActorKind, AuditEntry, AuditFilter } from "../../../core/model/audit.ts";
import type { Database, Queryable, Row } from "../db/database.ts";
import { writeInChunks } from "../db/chunks.ts";
import { log } from "../log.ts";

// The audit trail (issue 15 §6): one row per event in audit_events, which the database keeps append-only (trigger,
// migration 007_2). Events are queued and written together every FLUSH_MS (one insert for many calls, so reading
// patient data does not wait for a write); listing and closing flush first, so a listing always shows every event
// answered before it. A batch the database refuses (it is away) goes back to the front of the queue and is tried again
// every RETRY_MS, so an outage delays the trail but loses nothing, up to MAX_QUEUED events held in memory.

export interface AuditEvent {
  readonly organisationId: string | null;
  readonly at: string;
  readonly actorKind: AuditActorKind;
  readonly actorId: string | null;
  readonly actorName: string | null;
  readonly address: string | null;
  readonly action: string;
  readonly outcome: string;
  readonly patientId?: string | null;
  readonly recordType?: string | null;
  readonly recordId?: string | null;
}

const FLUSH_MS = 200;
const RETRY_MS = 2_000;
const MAX_QUEUED = 200_000;
/** Rows per insert statement: a few milliseconds of PGlite's time. */
const CHUNK = 100;

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
});

export const auditTrail = (db: Database) => {
  let queue: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  let failing = false;

  const schedule = (ms: number) => {
    timer ??= setTimeout(() => void flush(), ms);
  };

  /** One insert of a chunk: each column's values as one array parameter (the statement has 11 parameters, whatever the rows). */
  const insert = async (tx: Queryable, batch: readonly AuditEvent[]) => {
    const column = (value: (e: AuditEvent) => string | null | undefined) => batch.map((e) => value(e) ?? null);
    await tx.query(
      `insert into audit_events (organisation_id, at, actor_kind, actor_id, actor_name, address, action, outcome, patient_id, record_type, record_id)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])`,
      [
        column((e) => e.organisationId),
        column((e) => e.at),
        column((e) => e.actorKind),
        column((e) => e.actorId),
        column((e) => e.actorName),
        column((e) => e.address),
        column((e) => e.action),
        column((e) => e.outcome),
        column((e) => e.patientId),
        column((e) => e.recordType),
        column((e) => e.recordId),
      ],
    );
  };

  // A batch held through an outage, or a list read's per-patient events, can be thousands of events: written in chunks
  // (writeInChunks: the event loop is given back between them), in one transaction.
  const write = (batch: readonly AuditEvent[]) => db.transaction((tx) => writeInChunks(batch, CHUNK, (chunk) => insert(tx, chunk)));

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length > 0) {
      writing = writing.then(async () => {
        try {
          await write(batch);
          if (failing) log.info("audit_trail_written_again", { events: batch.length });
          failing = false;
        } catch (e: unknown) {
          if (!failing) log.error("audit_trail_write_failed", { error: e, events: batch.length, retryMs: RETRY_MS });
          failing = true;
          queue = [...batch, ...queue];
          if (queue.length > MAX_QUEUED) {
            log.error("audit_trail_events_dropped", { events: queue.length - MAX_QUEUED });
            queue = queue.slice(queue.length - MAX_QUEUED);
          }
          schedule(RETRY_MS);
        }
      });
    }
    return writing;
  };

  return {
    record(event: AuditEvent): void {
      queue.push(event);
      if (queue.length >= 500 && !failing) void flush();
      else schedule(failing ? RETRY_MS : FLUSH_MS);
    },
    flush,
    /** The organisation's events, newest first, filtered, one page. */
    async search(
      organisationId: string,
      filter: AuditFilter,
      page: number,
      quantity: number,
    ): Promise<{ entries: AuditEntry[]; total: number }> {
      await flush();
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
    },
  };
};

export type AuditTrail = ReturnType<typeof auditTrail>;
