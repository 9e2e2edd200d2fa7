import { createHash } from "node:crypto";
import pg from "pg";
import { Result } from "effect";
import type { Queryable } from "../db/database.ts";
import { log } from "../log.ts";
import { decodeEnvelopeJson } from "./messages.ts";
import type { Subject } from "./subjects.ts";
import { noTraffic, type BusTransport } from "./transport.ts";

// The bus over PostgreSQL, the default (nothing more to run): a subject is a notification channel; a process LISTENs
// on the channels of the subjects it holds, on a connection of its own, and publishes with pg_notify. Messages
// sent in one turn (the routed bus's window, routed-bus.ts) or while the previous batch was being sent are packed
// several to a notification per channel (a headset's
// liveness is a few hundred bytes: one notification per message made PostgreSQL and every listener handle thousands
// a second). A payload must stay under 8000 bytes; a message bigger than that goes into bus_events (migration 010) and
// its notification carries the row's id. A batch is one transaction: listeners hear its notifications in array order,
// and one process's batches are sent one after the other, so every subject's messages arrive in publish order.
// A process listening on a channel it also publishes to skips its own notifications unread (their envelope begins with
// its id): its subscribers heard them when it published.
//
// The listening connection is the process's tie to the others: when it breaks (or a probe on it does not answer) the
// transport is not ready until a new connection LISTENs again on every held channel; readiness and the sockets follow
// `ready` (server.ts).

/** NOTIFY refuses payloads of 8000 bytes or more; a little room is kept. */
export const NOTIFY_LIMIT_BYTES = 7_900;
/** PostgreSQL truncates identifiers to 63 bytes. */
const CHANNEL_BYTES = 63;
/** An envelope around the messages: the process id, a sequence number and the field names. */
const ENVELOPE_BYTES = 120;
const BATCH = 500;
const PROBE_MS = 1_000;
const RECONNECT_MS = 500;
/** Stored messages are read within moments; they are deleted after this. */
const STORED_KEEP = "5 minutes";

/** The notification channel of a subject: "isopter." and the subject, or its hash when that is too long. */
export const channelOf = (subject: Subject) => {
  const name = `isopter.${subject}`;
  return Buffer.byteLength(name) <= CHANNEL_BYTES ? name : `isopter.h.${createHash("sha256").update(subject).digest("hex").slice(0, 40)}`;
};
const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

export const postgresTransport = async (url: string, pool: Queryable, processId: string): Promise<BusTransport> => {
  const receivers: Array<(subject: Subject, body: unknown) => void> = [];
  const readyHandlers: Array<(ready: boolean) => void> = [];
  const traffic = noTraffic();
  /** Held subjects by channel: LISTENed on every new connection. */
  const subjects = new Map<string, Subject>();
  let listener: pg.Client | undefined;
  let ready = false;
  let closed = false;
  let seq = 0;

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    if (value) log.info("bus_listening", { process: processId, bus: "postgres" });
    else log.warn("bus_lost", { process: processId, bus: "postgres" });
    for (const h of readyHandlers) h(value);
  };

  // ---- receiving: one notification after the other (a stored one is read before the next is handled) -------------
  let inbox: Promise<void> = Promise.resolve();
  const skip = (why: string, payload: string) => {
    traffic.skipped++;
    log.warn("bus_message_skipped", { reason: why, payload: payload.slice(0, 200) });
  };
  const ownPrefix = `{"from":${JSON.stringify(processId)},`;
  const receive = async (subject: Subject, payload: string) => {
    if (payload.startsWith(ownPrefix)) return;
    const envelope = decodeEnvelopeJson(payload);
    if (Result.isFailure(envelope)) return skip(envelope.failure.message, payload);
    const { from, messages, stored } = envelope.success;
    if (from === processId) return;
    if (messages === undefined && stored === undefined) return skip("neither messages nor stored", payload);
    let bodies: ReadonlyArray<unknown> = messages ?? [];
    if (stored !== undefined) {
      const rows = await pool.query<{ payload: string }>("select payload from bus_events where id = $1", [stored]);
      if (!rows[0]) return skip(`stored message ${stored} is gone`, payload);
      try {
        bodies = [JSON.parse(rows[0].payload)];
      } catch {
        return skip(`stored message ${stored} is not JSON`, payload);
      }
    }
    traffic.received += bodies.length;
    for (const body of bodies) for (const r of receivers) r(subject, body);
  };
  const onNotification = (n: pg.Notification) => {
    const subject = subjects.get(n.channel);
    if (subject === undefined) return; // a channel let go of a moment ago
    const payload = n.payload ?? "";
    inbox = inbox.then(() => receive(subject, payload)).catch((e: unknown) => log.warn("bus_message_failed", { error: e }));
  };

  // ---- listening, probing, reconnecting ------------------------------------------------------------------------------
  const drop = (client: pg.Client) => {
    if (listener !== client) return;
    listener = undefined;
    client.removeAllListeners("notification");
    client.on("error", () => undefined);
    void client.end().catch(() => undefined);
    setReady(false);
    if (!closed) setTimeout(() => void connect(), RECONNECT_MS).unref();
  };
  const connect = async (): Promise<void> => {
    if (closed || listener) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5_000, query_timeout: 3_000 });
    client.on("error", () => drop(client));
    client.on("end", () => drop(client));
    client.on("notification", onNotification);
    listener = client;
    try {
      await client.connect();
      for (const channel of subjects.keys()) await client.query(`listen ${quoted(channel)}`);
      if (listener === client) setReady(true);
    } catch {
      drop(client);
    }
  };
  /** LISTEN or UNLISTEN on the current connection; without one, the next connection LISTENs on every held channel. */
  const onListener = async (sql: string) => {
    const client = listener;
    if (!client || !ready) return;
    await client.query(sql).catch(() => drop(client));
  };
  // A connection can hang without breaking (a network cut): a probe that does not answer in time drops it.
  const probe = setInterval(() => {
    const client = listener;
    if (!client || !ready) return;
    client.query("select 1").catch(() => drop(client));
  }, PROBE_MS);
  probe.unref();
  const sweep = setInterval(() => {
    pool.query(`delete from bus_events where created_at < clock_timestamp() - interval '${STORED_KEEP}'`).catch(() => undefined);
  }, 60_000);
  sweep.unref();

  // ---- sending: batches one after the other; within a batch, packed per channel in publish order -------------------
  const outbox: Array<{ channel: string; json: string }> = [];
  let sending: Promise<void> | undefined;
  const sendBatch = async (batch: ReadonlyArray<{ channel: string; json: string }>) => {
    const channels: string[] = [];
    const payloads: string[] = [];
    const envelope = (body: string) => `${ownPrefix}"seq":${++seq},${body}}`;
    const packs = new Map<string, { jsons: string[]; bytes: number }>();
    const closePack = (channel: string) => {
      const pack = packs.get(channel);
      if (!pack || pack.jsons.length === 0) return;
      channels.push(channel);
      payloads.push(envelope(`"messages":[${pack.jsons.join(",")}]`));
      packs.delete(channel);
    };
    for (const { channel, json } of batch) {
      const bytes = Buffer.byteLength(json) + 1;
      if (ENVELOPE_BYTES + bytes >= NOTIFY_LIMIT_BYTES) {
        closePack(channel);
        const rows = await pool.query<{ id: number }>("insert into bus_events (payload) values ($1) returning id", [json]);
        channels.push(channel);
        payloads.push(envelope(`"stored":${Number(rows[0]!.id)}`));
        continue;
      }
      let pack = packs.get(channel);
      if (pack && ENVELOPE_BYTES + pack.bytes + bytes >= NOTIFY_LIMIT_BYTES) closePack(channel);
      pack = packs.get(channel);
      if (!pack) packs.set(channel, (pack = { jsons: [], bytes: 0 }));
      pack.jsons.push(json);
      pack.bytes += bytes;
    }
    for (const channel of [...packs.keys()]) closePack(channel);
    // Counted as they are handed over (a listener may hear them before the query answers here).
    traffic.sent += batch.length;
    for (const p of payloads) traffic.sentBytes += Buffer.byteLength(p);
    // unnest yields the arrays in order and pg_notify runs row by row: one transaction, notifications in array order.
    await pool.query("select pg_notify(c, p) from unnest($1::text[], $2::text[]) as t(c, p)", [channels, payloads]);
  };
  const flush = async () => {
    while (outbox.length > 0) {
      const batch = outbox.splice(0, BATCH);
      await sendBatch(batch).catch((e: unknown) => log.warn("bus_publish_failed", { messages: batch.length, error: e }));
    }
    sending = undefined;
  };

  await connect();
  return {
    kind: "postgres",
    send(subject, json) {
      outbox.push({ channel: channelOf(subject), json });
      // What this turn of the event loop sends starts in one batch (the routed bus hands over a window's messages in
      // one turn); what comes while a batch is sent goes in the next.
      sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(flush);
    },
    async listen(subject) {
      const channel = channelOf(subject);
      subjects.set(channel, subject);
      await onListener(`listen ${quoted(channel)}`);
    },
    async unlisten(subject) {
      const channel = channelOf(subject);
      subjects.delete(channel);
      await onListener(`unlisten ${quoted(channel)}`);
    },
    onReceive: (handler) => void receivers.push(handler),
    get ready() {
      return ready;
    },
    onReady: (handler) => void readyHandlers.push(handler),
    traffic,
    async close() {
      closed = true;
      clearInterval(probe);
      clearInterval(sweep);
      await sending;
      const client = listener;
      listener = undefined;
      if (client) await client.end().catch(() => undefined);
    },
  };
};
