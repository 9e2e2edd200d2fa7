import { Result } from "effect";
import { connect, Events, type NatsConnection, type Subscription } from "nats";
import { redactedUrl, StartupError } from "../db/open.ts";
import { log } from "../log.ts";
import { decodeEnvelopeJson } from "./messages.ts";
import type { Subject } from "./subjects.ts";
import { noTraffic, type BusTransport } from "./transport.ts";

// The bus over NATS (Debian's nats-server), chosen by NATS_URL (issue 32 §2): a subject is the NATS subject
// "isopter." and the subject (subjects.ts writes tokens NATS takes), a process subscribes to the subjects it holds,
// and the messages sent in one turn of the event loop leave together, at setImmediate: one NATS message per subject
// holding them all in publish order, and one write to the socket (the routed bus hands over a window's messages in one
// turn, routed-bus.ts; packing spares the receivers a read, a callback and a parse per message).
// Each process has one connection: NATS keeps a connection's messages in order, so every subject's messages arrive
// in publish order. The connection is opened with noEcho (the server never hands a process its own messages back) and
// each payload is the same envelope the PostgreSQL bus uses ({"from","seq","messages"}), so a stray own message, a
// payload that is not JSON or one without the envelope is recognised: the last two are logged and skipped.
//
// The connection is the process's tie to the others: while it is lost the transport is not ready (readiness false, no
// new sockets; server.ts). The client reconnects forever, subscribes again to every held subject before anything
// else, then sends what was published meanwhile (its buffer) and reports the reconnection: ready again.

const PREFIX = "isopter.";
/** How soon after a lost connection the client tries again (and again, forever). */
const RECONNECT_MS = 500;
/** A connection can hang without breaking (a network cut): pings unanswered this often count it lost. */
const PING_MS = 2_000;
const MAX_PINGS_OUT = 2;
/** How long the first connection may take before the start fails. */
const CONNECT_MS = 5_000;
/** How long close() waits for the last messages to leave. */
const DRAIN_MS = 3_000;
/** A pack of messages stays under the broker's largest payload (1 MB by default): this many characters, three bytes
 * each at most. One bigger message goes alone. */
const PACK_CHARS = 256 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const natsTransport = async (url: string, processId: string): Promise<BusTransport> => {
  const receivers: Array<(subject: Subject, body: unknown) => void> = [];
  const readyHandlers: Array<(ready: boolean) => void> = [];
  const traffic = noTraffic();
  const subscriptions = new Map<Subject, Subscription>();
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: url,
      name: `isopter-${processId}`,
      noEcho: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_MS,
      pingInterval: PING_MS,
      maxPingOut: MAX_PINGS_OUT,
      timeout: CONNECT_MS,
    });
  } catch (e) {
    // At start an unreachable broker is a configuration mistake to report at once, not an outage to wait out.
    const why = e instanceof Error ? e.message : String(e);
    throw new StartupError(`cannot use NATS_URL ${redactedUrl(url)}: no NATS server answers there (${why})`);
  }
  let ready = true;
  let closed = false;
  let seq = 0;
  log.info("bus_listening", { process: processId, bus: "nats" });

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    if (value) log.info("bus_listening", { process: processId, bus: "nats" });
    else log.warn("bus_lost", { process: processId, bus: "nats" });
    for (const h of readyHandlers) h(value);
  };
  /** Counts lost connections, so a late flush of an earlier one cannot make the transport ready. */
  let connection = 0;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) {
        connection++;
        setReady(false);
      }
      // Ready once the server answers a ping sent after the subscriptions the client sent again on reconnecting: only
      // then does it hear what the others publish (a message sent just before would find no subscriber). A connection
      // lost again meanwhile keeps it not ready.
      else if (status.type === Events.Reconnect) {
        const now = connection;
        void nc.flush().then(
          () => setReady(now === connection && !nc.isClosed()),
          () => undefined,
        );
      } else if (status.type === Events.Error) log.warn("bus_error", { bus: "nats", error: status.data });
    }
  })();
  // The client closes itself only when told to, or on an error it cannot recover from: never ready again.
  void nc.closed().then((e) => {
    if (closed) return;
    log.warn("bus_closed", { bus: "nats", error: e });
    setReady(false);
  });

  // ---- receiving: the client calls back per message, in the order the server sent them ------------------------------
  const skip = (why: string, payload: string) => {
    traffic.skipped++;
    log.warn("bus_message_skipped", { reason: why, payload: payload.slice(0, 200) });
  };
  const receive = (subject: Subject, data: Uint8Array) => {
    const payload = decoder.decode(data);
    const envelope = decodeEnvelopeJson(payload);
    if (Result.isFailure(envelope)) return skip(envelope.failure.message, payload);
    const { from, messages } = envelope.success;
    if (from === processId) return;
    if (messages === undefined) return skip("no messages", payload);
    traffic.received += messages.length;
    for (const body of messages) for (const r of receivers) r(subject, body);
  };

  // ---- sending: what one turn of the event loop sent, packed per subject -------------------------------------
  const outbox = new Map<Subject, string[]>();
  let flushing = false;
  const publish = (subject: Subject, jsons: ReadonlyArray<string>) => {
    const payload = encoder.encode(`{"from":${JSON.stringify(processId)},"seq":${++seq},"messages":[${jsons.join(",")}]}`);
    try {
      // While the connection is lost the client keeps what is published (up to 8 MB) and sends it on reconnecting.
      nc.publish(PREFIX + subject, payload);
      traffic.sent += jsons.length;
      traffic.sentBytes += payload.byteLength;
    } catch (e) {
      log.warn("bus_publish_failed", { messages: jsons.length, bytes: payload.byteLength, error: e });
    }
  };
  const flush = () => {
    flushing = false;
    for (const [subject, jsons] of outbox) {
      let from = 0;
      let chars = 0;
      jsons.forEach((json, i) => {
        if (i > from && chars + json.length > PACK_CHARS) {
          publish(subject, jsons.slice(from, i));
          from = i;
          chars = 0;
        }
        chars += json.length;
      });
      publish(subject, jsons.slice(from));
    }
    outbox.clear();
  };

  return {
    kind: "nats",
    send(subject, json) {
      const jsons = outbox.get(subject);
      if (jsons) jsons.push(json);
      else outbox.set(subject, [json]);
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    },
    async listen(subject) {
      if (closed || subscriptions.has(subject)) return;
      subscriptions.set(
        subject,
        nc.subscribe(PREFIX + subject, {
          callback: (err, msg) => (err ? log.warn("bus_subscription_failed", { subject, error: err }) : receive(subject, msg.data)),
        }),
      );
      // The server has the subscription once it answers a ping sent after it. Without a connection the client
      // subscribes again first thing on reconnecting, before it is ready.
      if (ready) await nc.flush().catch(() => undefined);
    },
    async unlisten(subject) {
      const sub = subscriptions.get(subject);
      subscriptions.delete(subject);
      if (sub && !closed) sub.unsubscribe();
    },
    onReceive: (handler) => void receivers.push(handler),
    get ready() {
      return ready;
    },
    onReady: (handler) => void readyHandlers.push(handler),
    traffic,
    async close() {
      if (closed) return;
      closed = true;
      flush();
      // Drain sends what was published and lets the subscriptions go; without a broker there is nothing to wait for.
      const drained = ready ? nc.drain().catch(() => undefined) : Promise.resolve();
      const timer = new Promise<void>((r) => setTimeout(r, DRAIN_MS).unref());
      await Promise.race([drained, timer]);
      if (!nc.isClosed()) await nc.close().catch(() => undefined);
    },
  };
};
