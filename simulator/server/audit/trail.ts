import type { AuditFilter } from "../../../core/model/audit.ts";
import type { Database, Queryable } from "../db/database.ts";
import { writeInChunks } from "../db/chunks.ts";
import { isDatabaseUnavailable, isUniqueViolation } from "../db/faults.ts";
import { describeError, log } from "../log.ts";
import { BEFORE_CHAIN, CHAIN_START_ACTION, entryHash, GENESIS, type HashedFields } from "./chain.ts";
import type { AuditEvent } from "./event.ts";
import { searchTrail } from "./search.ts";
import { reducedEvent, storableEvent, VALUE_MAX } from "./storable.ts";

// The audit trail (issue 15 §6): one row per event in audit_events, which the database keeps append-only (trigger,
// migration 007_2). Events are made storable (storable.ts) and queued, and written together every FLUSH_MS (one insert
// for many calls, so reading patient data does not wait for a write); listing and closing flush first, so a listing
// always shows every event answered before it. Each write takes the chain's lock, reads the chain's tail and appends
// the batch as the next entries of the hash chain (chain.ts, migration 016), so processes sharing one PostgreSQL
// append one after another and the chain stays one line.
// A batch refused because the database is away goes back to the front of the queue and is tried again every RETRY_MS:
// an outage delays the trail but loses nothing, up to MAX_QUEUED events held in memory. A batch refused for any other
// reason is split in halves until the event refused is found (issue 33 §6); that one is written in a reduced form
// that says why, and the rest go on. Only when even the reduced form is refused is the remainder held and tried again.

export type { AuditEvent } from "./event.ts";

const FLUSH_MS = 200;
const RETRY_MS = 2_000;
const MAX_QUEUED = 200_000;
/** Rows per insert statement: a few milliseconds of PGlite's time. */
const CHUNK = 100;

/** Refusals worth trying again as they are: the database away, or a conflict of concurrent transactions. */
const transient = (e: unknown): boolean => {
  const code = (e as { code?: unknown } | null)?.code;
  return isDatabaseUnavailable(e) || code === "40001" || code === "40P01" || code === "55P03" || isUniqueViolation(e, "audit_events_seq");
};

/** Even the reduced form of an event was refused: the trail cannot write now. */
class TrailRefused extends Error {}

const fieldsOf = (e: AuditEvent): HashedFields => ({
  organisation_id: e.organisationId,
  at: e.at,
  actor_kind: e.actorKind,
  actor_id: e.actorId,
  actor_name: e.actorName,
  address: e.address,
  action: e.action,
  outcome: e.outcome,
  patient_id: e.patientId ?? null,
  record_type: e.recordType ?? null,
  record_id: e.recordId ?? null,
  note: e.note ?? null,
});

export const auditTrail = (db: Database) => {
  let queue: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let failing = false;
  const counts = { cutEvents: 0, cutValues: 0, reducedEvents: 0 };
  let lastCutLog = 0;

  const schedule = (ms: number) => {
    timer ??= setTimeout(() => void flush(), ms);
  };

  /** One insert of a chunk: each column's values as one array parameter (15 parameters, whatever the rows). */
  const insert = async (tx: Queryable, rows: ReadonlyArray<{ fields: HashedFields; seq: number; prevHash: string; hash: string }>) => {
    const column = (c: keyof HashedFields) => rows.map((r) => r.fields[c]);
    await tx.query(
      `insert into audit_events (organisation_id, at, actor_kind, actor_id, actor_name, address, action, outcome, patient_id, record_type, record_id, seq, prev_hash, hash, note)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::text[])`,
      [
        column("organisation_id"),
        column("at"),
        column("actor_kind"),
        column("actor_id"),
        column("actor_name"),
        column("address"),
        column("action"),
        column("outcome"),
        column("patient_id"),
        column("record_type"),
        column("record_id"),
        rows.map((r) => String(r.seq)),
        rows.map((r) => r.prevHash),
        rows.map((r) => r.hash),
        column("note"),
      ],
    );
  };

  /** The chain's first entry: it counts the entries from before the chain (migration 016) and names the last of their ids. */
  const chainStart = async (tx: Queryable): Promise<HashedFields> => {
    const before = (
      await tx.query<{ n: string; last: string | null }>("select count(*) as n, max(id) as last from audit_events where seq is null")
    )[0]!;
    const n = Number(before.n);
    return fieldsOf({
      organisationId: null,
      at: new Date().toISOString(),
      actorKind: "anonymous",
      actorId: null,
      actorName: "Isopter server",
      address: null,
      action: CHAIN_START_ACTION,
      outcome: "success",
      recordType: BEFORE_CHAIN,
      recordId: `${n}:${Number(before.last ?? 0)}`,
      note: `the hash chain starts here (migration 016); ${n} earlier entries are not chained`,
    });
  };

  // A batch held through an outage, or a list read's per-patient events, can be thousands of events: written in chunks
  // (writeInChunks: the event loop is given back between them), in one transaction that holds the chain's lock.
  const write = (batch: readonly AuditEvent[]) =>
    db.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock(hashtext('audit_chain'))");
      const tail = (
        await tx.query<{ tail_seq: string; hash: string }>(
          "select seq::text as tail_seq, hash from audit_events where seq is not null order by seq desc limit 1",
        )
      )[0];
      const fields = batch.map(fieldsOf);
      if (!tail) fields.unshift(await chainStart(tx));
      let seq = tail ? Number(tail.tail_seq) + 1 : 0;
      let prevHash = tail?.hash ?? GENESIS;
      const rows = fields.map((f) => {
        const hash = entryHash(seq, prevHash, f);
        const row = { fields: f, seq: seq++, prevHash, hash };
        prevHash = hash;
        return row;
      });
      await writeInChunks(rows, CHUNK, (chunk) => insert(tx, chunk));
    });

  /** Writes `batch` in order, splitting a refused one until the refused event is found; `done` counts the events
   * written (or reduced), so a transient refusal part way leaves the rest to be queued again. */
  const writeSplitting = async (batch: readonly AuditEvent[], done: { n: number }): Promise<void> => {
    try {
      await write(batch);
      done.n += batch.length;
      return;
    } catch (e) {
      if (transient(e)) throw e;
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await writeSplitting(batch.slice(0, half), done);
        await writeSplitting(batch.slice(half), done);
        return;
      }
      const reduced = reducedEvent(batch[0]!, e);
      try {
        await write([reduced]);
      } catch (again) {
        throw transient(again) ? again : new TrailRefused(describeError(again), { cause: again });
      }
      done.n += 1;
      counts.reducedEvents++;
      log.warn("audit_event_reduced", { action: reduced.action, error: e });
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length > 0) {
      writing = writing.then(async () => {
        const done = { n: 0 };
        try {
          await writeSplitting(batch, done);
          if (failing) log.info("audit_trail_written_again", { events: batch.length });
          failing = false;
        } catch (e: unknown) {
          if (!failing) log.error("audit_trail_write_failed", { error: e, events: batch.length - done.n, retryMs: RETRY_MS });
          failing = true;
          queue = [...batch.slice(done.n), ...queue];
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
    /** Queues an event, made storable first (values cut and marked in its note). */
    record(event: AuditEvent): void {
      const { event: storable, cutValues } = storableEvent(event);
      if (cutValues > 0) {
        counts.cutEvents++;
        counts.cutValues += cutValues;
        // Counted in the log too, at most once a minute (a fuzzing client would otherwise write a line per request).
        if (Date.now() - lastCutLog >= 60_000) {
          lastCutLog = Date.now();
          log.warn("audit_values_cut", { events: counts.cutEvents, values: counts.cutValues, maxCharacters: VALUE_MAX });
        }
      }
      queue.push(storable);
      if (queue.length >= 500 && !failing) void flush();
      else schedule(failing ? RETRY_MS : FLUSH_MS);
    },
    flush,
    /** The last flush before the database closes: what still cannot be written is named in the log, and no retry is
     * left behind to write into a closed database. */
    async close(): Promise<void> {
      await flush();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (queue.length > 0) log.error("audit_trail_events_unwritten", { events: queue.length });
    },
    /** Starts the chain when the database has none yet (server start, right after the migrations): from here on an
     * entry without a place in the chain is one added beside the trail, not one from before it. */
    begin: () => write([]),
    /** Events cut and reduced since start, and events waiting (for the log and the tests). */
    stats: () => ({ ...counts, queued: queue.length }),
    /** The organisation's events, newest first, filtered, one page (every event answered before it included). */
    async search(organisationId: string, filter: AuditFilter, page: number, quantity: number) {
      await flush();
      return searchTrail(db, organisationId, filter, page, quantity);
    },
  };
};

export type AuditTrail = ReturnType<typeof auditTrail>;
