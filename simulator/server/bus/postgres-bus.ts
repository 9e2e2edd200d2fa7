import { randomUUID } from "node:crypto";
import pg from "pg";
import { Result } from "effect";
import { decodeJson } from "../../../core/model/decode.ts";
import type { Queryable } from "../db/database.ts";
import { log } from "../log.ts";
import { deliver, type Bus, type BusHandler } from "./bus.ts";
import { decodeBusMessage, EnvelopeSchema, type BusMessage } from "./messages.ts";

// The bus over PostgreSQL: every process LISTENs on one channel on a connection of its own and publishes with
// pg_notify. Messages published while the previous batch was being sent are packed several to a notification (a
// headset's liveness is a few hundred bytes: one notification per message made PostgreSQL and every listener handle
// thousands a second). A payload must stay under 8000 bytes; a message bigger than that goes into bus_events
// (migration 010) and its notification carries the row's id. Notifications reach listeners in commit order, and one
// process's batches are sent one after the other, so every process hears another's messages in the order they were
// published (per device too). A process skips its own notifications unread (their envelope begins with its id): its
// subscribers heard them when it published.
//
// The listening connection is the process's tie to the others: when it breaks (or a probe on it does not answer) the
// bus is not ready until a new connection LISTENs again; readiness and the sockets follow `ready` (server.ts).

export const CHANNEL = "isopter_bus";
/** NOTIFY refuses payloads of 8000 bytes or more; a little room is kept. */
export const NOTIFY_LIMIT_BYTES = 7_900;
/** An envelope around the messages: the process id, a sequence number and the field names. */
const ENVELOPE_BYTES = 120;
const BATCH = 500;
const PROBE_MS = 1_000;
const RECONNECT_MS = 500;
/** Stored messages are read within moments; they are deleted after this. */
const STORED_KEEP = "5 minutes";

export const postgresBus = async (url: string, pool: Queryable): Promise<Bus> => {
  const processId = randomUUID();
  const handlers: BusHandler[] = [];
  const readyHandlers: Array<(ready: boolean) => void> = [];
  let listener: pg.Client | undefined;
  let ready = false;
  let closed = false;
  let seq = 0;

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    if (value) log.info("bus_listening", { process: processId });
    else log.warn("bus_lost", { process: processId });
    for (const h of readyHandlers) h(value);
  };

  // ---- receiving: one notification after the other (a stored one is read before the next is handled) -------------
  let inbox: Promise<void> = Promise.resolve();
  const skip = (why: string, payload: string) => log.warn("bus_message_skipped", { reason: why, payload: payload.slice(0, 200) });
  const ownPrefix = `{"from":${JSON.stringify(processId)},`;
  const receive = async (payload: string) => {
    if (payload.startsWith(ownPrefix)) return;
    const envelope = decodeJson(EnvelopeSchema, payload);
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
    for (const body of bodies) {
      const decoded = decodeBusMessage(body);
      if (Result.isFailure(decoded)) skip(decoded.failure.message, JSON.stringify(body) ?? payload);
      else deliver(handlers, decoded.success, false);
    }
  };
  const onNotification = (n: pg.Notification) => {
    if (n.channel !== CHANNEL) return;
    const payload = n.payload ?? "";
    inbox = inbox.then(() => receive(payload)).catch((e: unknown) => log.warn("bus_message_failed", { error: e }));
  };

  // ---- listening, probing, reconnecting ------------------------------------------------------------------------------
  const drop = (client: pg.Client) => {
    if (listener !== client) return;
    listener = undefined;
    client.removeAllListeners("notification");
    client.on("error", () => undefined);
    void client.end().catch(() => undefined);
    setReady(false);
    if (!closed) setTimeout(() => void listen(), RECONNECT_MS).unref();
  };
  const listen = async (): Promise<void> => {
    if (closed || listener) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5_000, query_timeout: 3_000 });
    client.on("error", () => drop(client));
    client.on("end", () => drop(client));
    client.on("notification", onNotification);
    listener = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (listener === client) setReady(true);
    } catch {
      drop(client);
    }
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

  // ---- sending: batches one after the other, so notifications keep the publish order -------------------------------
  const outbox: string[] = [];
  let sending = false;
  const sendBatch = async (batch: string[]) => {
    const payloads: string[] = [];
    let pack: string[] = [];
    let packBytes = 0;
    const envelope = (body: string) => `${ownPrefix}"seq":${++seq},${body}}`;
    const closePack = () => {
      if (pack.length > 0) payloads.push(envelope(`"messages":[${pack.join(",")}]`));
      pack = [];
      packBytes = 0;
    };
    for (const json of batch) {
      const bytes = Buffer.byteLength(json) + 1;
      if (ENVELOPE_BYTES + bytes >= NOTIFY_LIMIT_BYTES) {
        closePack();
        const rows = await pool.query<{ id: number }>("insert into bus_events (payload) values ($1) returning id", [json]);
        payloads.push(envelope(`"stored":${Number(rows[0]!.id)}`));
        continue;
      }
      if (ENVELOPE_BYTES + packBytes + bytes >= NOTIFY_LIMIT_BYTES) closePack();
      pack.push(json);
      packBytes += bytes;
    }
    closePack();
    // unnest yields the array in order and pg_notify runs row by row: one transaction, notifications in array order.
    await pool.query(`select pg_notify('${CHANNEL}', p) from unnest($1::text[]) as p`, [payloads]);
  };
  const flush = async () => {
    sending = true;
    try {
      while (outbox.length > 0) {
        const batch = outbox.splice(0, BATCH);
        await sendBatch(batch).catch((e: unknown) => log.warn("bus_publish_failed", { messages: batch.length, error: e }));
      }
    } finally {
      sending = false;
    }
  };

  await listen();
  return {
    processId,
    publish(message: BusMessage) {
      deliver(handlers, message, true);
      if (closed) return;
      outbox.push(JSON.stringify(message));
      if (!sending) void flush();
    },
    subscribe: (handler) => void handlers.push(handler),
    get ready() {
      return ready;
    },
    onReady: (handler) => void readyHandlers.push(handler),
    async close() {
      closed = true;
      clearInterval(probe);
      clearInterval(sweep);
      while (sending) await new Promise((r) => setTimeout(r, 5));
      const client = listener;
      listener = undefined;
      if (client) await client.end().catch(() => undefined);
    },
  };
};
