import { toFhirAuditEvent } from "../../../core/model/audit-fhir.ts";
import type { AuditActorKind } from "../../../core/model/audit.ts";
import type { Database, Row } from "../db/database.ts";
import { log } from "../log.ts";

// The push to an audit repository (issue 33 §3): where one is configured (AUDIT_FHIR_URL, the repository's FHIR base),
// the trail's new entries are posted as FHIR transaction Bundles of AuditEvents (core/model/audit-fhir.ts, IHE BALP),
// in chain order, PUSH_BATCH at a time. Reliable without holding anything up: the entries wait in the database, not
// in memory, and the cursor (the last chain position the repository accepted, in `settings`) moves only on a 2xx
// answer, so an unreachable or refusing repository delays the copy and loses nothing; the trail writes on regardless.
// Several processes on one PostgreSQL: one pushes at a time, holding a lease in `settings` that it renews each round.
// A lease lost in the middle of a post can send a batch twice (at least once, never lost); each entry's fullUrl is
// urn:uuid made from its chain hash, so a repository can tell a second copy.

export interface AuditRepository {
  /** The repository's FHIR base URL: Bundles are POSTed to it. */
  readonly url: string;
  /** An Authorization header value for it, if it asks for one. */
  readonly authorization?: string | undefined;
}

const PUSH_MS = 1_000;
const PUSH_BATCH = 100;
const LEASE_MS = 30_000;
const TIMEOUT_MS = 10_000;
const BACKOFF_MAX_MS = 60_000;
const CURSOR = "audit_push_cursor";
const LEASE = "audit_push_lease";

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** A uuid (RFC 9562 layout, version nibble 8: custom) from an entry's chain hash. */
const uuidOf = (hash: string) =>
  `${hash.slice(0, 8)}-${hash.slice(8, 12)}-8${hash.slice(13, 16)}-${((Number.parseInt(hash[16]!, 16) & 3) | 8).toString(16)}${hash.slice(17, 20)}-${hash.slice(20, 32)}`;

export const transactionOf = (rows: readonly Row[], serverUrl: string) => ({
  resourceType: "Bundle" as const,
  type: "transaction" as const,
  entry: rows.map((r) => {
    const { id: _id, ...event } = toFhirAuditEvent(
      {
        id: Number(r.id),
        at: String(r.at),
        actorKind: r.actor_kind as AuditActorKind,
        actorId: text(r.actor_id),
        actorName: text(r.actor_name),
        address: text(r.address),
        action: String(r.action),
        outcome: String(r.outcome),
        patientId: text(r.patient_id),
        recordType: text(r.record_type),
        recordId: text(r.record_id),
        note: text(r.note),
      },
      text(r.organisation_id) ?? "none",
      { url: serverUrl },
    );
    return { fullUrl: `urn:uuid:${uuidOf(String(r.hash))}`, resource: event, request: { method: "POST" as const, url: "AuditEvent" } };
  }),
});

export const auditPush = (db: Database, repository: AuditRepository, serverUrl: () => string, holder: string) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let failures = 0;
  let abort: AbortController | undefined;
  const figures = { posted: 0, entries: 0, refused: 0 };

  const lease = async (): Promise<boolean> => {
    const now = Date.now();
    const rows = await db.query(
      `insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value
       where (settings.value::jsonb->>'until')::bigint < $3 or settings.value::jsonb->>'holder' = $4 returning key`,
      [LEASE, JSON.stringify({ holder, until: now + LEASE_MS }), now, holder],
    );
    return rows.length === 1;
  };

  /** The cursor: where the copy stands. Absent: the push starts with the entries written from now on. */
  const cursor = async (): Promise<string> => {
    await db.query(
      "insert into settings (key, value) values ($1, (select coalesce(max(seq), -1)::text from audit_events)) on conflict (key) do nothing",
      [CURSOR],
    );
    return (await db.query<{ value: string }>("select value from settings where key = $1", [CURSOR]))[0]!.value;
  };

  const post = async (bundle: unknown): Promise<void> => {
    abort = new AbortController();
    const cut = setTimeout(() => abort?.abort(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    try {
      const res = await fetch(repository.url, {
        method: "POST",
        headers: {
          "content-type": "application/fhir+json",
          accept: "application/fhir+json",
          ...(repository.authorization ? { authorization: repository.authorization } : {}),
        },
        body: JSON.stringify(bundle),
        signal: abort.signal,
      });
      const answer = await res.text();
      if (!res.ok) throw new Error(`${res.status} ${answer.slice(0, 300)}`);
    } finally {
      clearTimeout(cut);
    }
  };

  /** One round: while this process holds the lease and entries wait, post a batch and move the cursor past it. */
  const round = async () => {
    if (!(await lease())) return;
    for (let batches = 0; batches < 10 && !stopped; batches++) {
      const from = await cursor();
      const rows = await db.query("select * from audit_events where seq > $1::bigint order by seq limit $2", [from, PUSH_BATCH]);
      if (rows.length === 0) return;
      await post(transactionOf(rows, serverUrl()));
      const to = String(rows.at(-1)!.seq);
      await db.query("update settings set value = $2 where key = $1 and value = $3", [CURSOR, to, from]);
      figures.posted++;
      figures.entries += rows.length;
      if (failures > 0) log.info("audit_push_resumed", { url: repository.url, after: failures });
      failures = 0;
    }
  };

  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(tick, ms);
  };
  const tick = () => {
    running = round().then(
      () => schedule(PUSH_MS),
      (e: unknown) => {
        if (stopped) return;
        failures++;
        figures.refused++;
        if (failures === 1) log.error("audit_push_failed", { url: repository.url, error: e });
        // Backing off (doubling up to a minute); the entries wait in the database.
        schedule(Math.min(BACKOFF_MAX_MS, PUSH_MS * 2 ** Math.min(failures, 6)));
      },
    );
  };
  schedule(0);

  return {
    figures: () => ({ ...figures, failing: failures > 0 }),
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort?.abort(new Error("server closing"));
      await running.catch(() => undefined);
    },
  };
};

export type AuditPush = ReturnType<typeof auditPush>;
