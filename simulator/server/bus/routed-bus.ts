import { randomUUID } from "node:crypto";
import { Result, Schema } from "effect";
import { decode } from "../../../core/model/decode.ts";
import { log } from "../log.ts";
import { deliver, type Bus, type BusHandler } from "./bus.ts";
import { decodeBusMessage, type BusMessage } from "./messages.ts";
import { ALL, processSubject, subjectOf, type Subject } from "./subjects.ts";
import type { BusTransport } from "./transport.ts";

// The bus between processes, routed by interest (issue 32 §1). A process holds a subject while it has a reason to hear
// it (a browser of the organisation, a headset connected here) and tells the others; a publisher sends a message only
// when another process holds its subject, so an event nobody elsewhere listens to never leaves its process (not even
// as a NOTIFY on the database or a publish to the broker).
//
// What processes tell each other about interest, on the subject "all" unless said:
//   hello                    a process (re)joined: every other answers with its whole interest, on process.<from>;
//   interest add/remove      a process began or stopped holding subjects; "reset" replaces what it held before
//                            (a whole answer to hello; an empty one marked "leaving" when it shuts down);
//   interest_ack             on process.<from>: "heard your interest <token>".
// A new interest waits for every known process's ack (or ACK_MS) before it counts as held: the browser's handshake and
// the headset's presence claim wait for it, so nothing published after them is skipped for want of news. Processes
// that died without a word are forgotten through the roster's leases (`keepPeers`); one that was only stalled past its
// lease (a machine short of CPU) is forgotten too, and when it finds its lease gone it says hello and its whole interest
// again (`rejoined`), so the others send to it once more.
//
// Packing (issue 32 §3: a crossing cost about as much as the headset's own work, most of it per message: a write, a
// read, a callback and a parse each). What is published waits up to PACK_MS for more. A window with a single message
// for an organisation or a device sends it on that subject, as the broker routes it; a window with several sends each
// to the process subjects of the processes holding its subject (this table of interest is what decides who hears
// what either way), so each of them gets one pack per window instead of one message per event. A device's or an
// organisation's messages keep their order: within a window they share each holder's pack in publish order, and
// windows leave one after the other on one connection. A process takes from its own subject only what it holds
// (a message sent before the sender heard that it let the subject go is dropped, as an unlistened subject's is).

const ACK_MS = 1_000;
/**
 * How long a published message waits for others to leave with it. A turn of the event loop rarely publishes more than
 * one (a headset frame is a turn of its own); a few milliseconds gather packs under load, for a delay far inside the
 * live aim (50 ms from headset to browser).
 */
export const PACK_MS = 4;
/** A process not in the roster's list is forgotten only once it has been silent this long (it may be just starting). */
const FORGET_SILENT_MS = 10_000;

const ControlSchema = Schema.Union([
  Schema.Struct({ type: Schema.Literal("hello"), from: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("interest"),
    from: Schema.String,
    add: Schema.Array(Schema.String),
    remove: Schema.Array(Schema.String),
    reset: Schema.Boolean,
    token: Schema.optionalKey(Schema.String),
    leaving: Schema.optionalKey(Schema.Boolean),
  }),
  Schema.Struct({ type: Schema.Literal("interest_ack"), from: Schema.String, token: Schema.String }),
]);
type Control = typeof ControlSchema.Type;
const CONTROL_TYPES = new Set(["hello", "interest", "interest_ack"]);
const NOBODY: readonly string[] = [];

interface Peer {
  readonly subjects: Set<Subject>;
  heardAt: number;
}

export const routedBus = async (
  transport: BusTransport,
  processId: string,
  options: { readonly ackMs?: number; readonly forgetSilentMs?: number } = {},
): Promise<Bus> => {
  const me = processSubject(processId);
  const ackMs = options.ackMs ?? ACK_MS;
  const forgetSilentMs = options.forgetSilentMs ?? FORGET_SILENT_MS;
  const handlers: BusHandler[] = [];
  const held = new Map<Subject, number>();
  const announcing = new Map<Subject, Promise<void>>();
  const peers = new Map<string, Peer>();
  /** Who holds each subject, the peers' subjects turned around: a publish finds its receivers in one lookup, however
   * many processes there are. Each list is replaced, never changed, so a message waiting in the window keeps its own. */
  const holding = new Map<Subject, readonly string[]>();
  const hold = (id: string, subject: Subject) => {
    const now = holding.get(subject) ?? [];
    if (!now.includes(id)) holding.set(subject, [...now, id]);
  };
  const unhold = (id: string, subject: Subject) => {
    const next = (holding.get(subject) ?? []).filter((h) => h !== id);
    if (next.length > 0) holding.set(subject, next);
    else holding.delete(subject);
  };
  const forget = (id: string) => {
    for (const subject of peers.get(id)?.subjects ?? []) unhold(id, subject);
    peers.delete(id);
  };
  const waiting = new Map<string, { readonly unheard: Set<string>; readonly done: () => void }>();
  let closed = false;

  const sendControl = (subject: Subject, control: Control) => transport.send(subject, JSON.stringify(control));
  const peer = (id: string) => {
    let p = peers.get(id);
    if (!p) peers.set(id, (p = { subjects: new Set(), heardAt: Date.now() }));
    p.heardAt = Date.now();
    return p;
  };
  const wholeInterest = (): Control => ({ type: "interest", from: processId, add: [...held.keys()], remove: [], reset: true });
  const heard = (token: string, from: string) => {
    const w = waiting.get(token);
    if (!w) return;
    w.unheard.delete(from);
    if (w.unheard.size === 0) w.done();
  };

  const onControl = (c: Control) => {
    if (c.from === processId) return;
    if (c.type === "hello") {
      peer(c.from);
      return sendControl(processSubject(c.from), wholeInterest());
    }
    if (c.type === "interest_ack") return heard(c.token, c.from);
    const p = peer(c.from);
    if (c.reset) {
      for (const s of p.subjects) unhold(c.from, s);
      p.subjects.clear();
    }
    for (const s of c.add) {
      p.subjects.add(s);
      hold(c.from, s);
    }
    for (const s of c.remove) {
      p.subjects.delete(s);
      unhold(c.from, s);
    }
    if (c.leaving) forget(c.from);
    if (c.token !== undefined) sendControl(processSubject(c.from), { type: "interest_ack", from: processId, token: c.token });
  };
  const skip = (reason: string, body: unknown) => {
    transport.traffic.skipped++;
    log.warn("bus_message_skipped", { reason, payload: (JSON.stringify(body) ?? "").slice(0, 200) });
  };
  transport.onReceive((subject, body) => {
    const type = (body as { type?: unknown } | null)?.type;
    if (typeof type === "string" && CONTROL_TYPES.has(type)) {
      const control = decode(ControlSchema, body);
      return Result.isFailure(control) ? skip(control.failure.message, body) : onControl(control.success);
    }
    const decoded = decodeBusMessage(body);
    if (Result.isFailure(decoded)) return skip(decoded.failure.message, body);
    // Only what was published to this subject, or packed for this process on a subject it holds: a live event heard
    // on one organisation's subject but naming another would otherwise reach the other's browsers here.
    const addressed = subjectOf(decoded.success);
    if (subject === me && addressed !== me) {
      if (!held.has(addressed)) return;
    } else if (addressed !== subject) return skip(`heard on ${subject} but addressed to ${addressed}`, body);
    deliver(handlers, decoded.success, false);
  });

  /** Tells the others that this process holds `subject`, and resolves once each known process has heard it. */
  const announce = (subject: Subject) =>
    new Promise<void>((resolve) => {
      const token = randomUUID();
      const unheard = new Set(peers.keys());
      const timer = setTimeout(() => done(), ackMs);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(token);
        resolve();
      };
      if (unheard.size === 0) return done();
      waiting.set(token, { unheard, done });
      sendControl(ALL, { type: "interest", from: processId, add: [subject], remove: [], reset: false, token });
    });

  const release = (subject: Subject) => {
    const n = (held.get(subject) ?? 0) - 1;
    if (n > 0) return void held.set(subject, n);
    held.delete(subject);
    if (closed) return;
    sendControl(ALL, { type: "interest", from: processId, add: [], remove: [subject], reset: false });
    void transport.unlisten(subject).catch((e: unknown) => log.warn("bus_unlisten_failed", { subject, error: e }));
  };

  const greet = () => {
    sendControl(ALL, { type: "hello", from: processId });
    if (held.size > 0) sendControl(ALL, wholeInterest());
  };
  await transport.listen(ALL);
  await transport.listen(me);
  greet();
  // Back after an outage: the others may have changed their interest meanwhile, and missed ours.
  transport.onReady((ready) => {
    if (ready && !closed) greet();
  });

  // "all" and another process's own subject are always held by someone (a process that just started may not have
  // answered hello yet): null, sent on the subject. Any other subject: the known processes that said they hold it.
  const holdersOf = (subject: Subject): readonly string[] | null => {
    if (subject === me) return NOBODY;
    if (subject === ALL || subject.startsWith("process.")) return null;
    return holding.get(subject) ?? NOBODY;
  };

  interface Outgoing {
    readonly subject: Subject;
    readonly json: string;
    readonly holders: readonly string[] | null;
  }
  let window: Outgoing[] = [];
  let routed = 0;
  let timer: NodeJS.Timeout | undefined;
  const send = (o: Outgoing, packed: boolean) => {
    if (packed && o.holders) for (const h of o.holders) transport.send(processSubject(h), o.json);
    else transport.send(o.subject, o.json);
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const out = window;
    const packed = routed > 1;
    window = [];
    routed = 0;
    for (const o of out) send(o, packed);
  };

  return {
    processId,
    kind: transport.kind,
    publish(message: BusMessage) {
      deliver(handlers, message, true);
      if (closed) return;
      const subject = subjectOf(message);
      const holders = holdersOf(subject);
      if (holders?.length === 0) return;
      const o = { subject, json: JSON.stringify(message), holders };
      window.push(o);
      if (holders) routed++;
      timer ??= setTimeout(flush, PACK_MS);
    },
    subscribe: (handler) => void handlers.push(handler),
    async interest(subject) {
      const n = held.get(subject) ?? 0;
      held.set(subject, n + 1);
      if (n === 0) {
        const first = transport.listen(subject).then(() => announce(subject));
        announcing.set(subject, first);
        void first.finally(() => announcing.delete(subject));
      }
      await announcing.get(subject);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(subject);
      };
    },
    keepPeers(alive) {
      const live = new Set(alive);
      for (const [id, p] of peers) if (!live.has(id) && Date.now() - p.heardAt > forgetSilentMs) forget(id);
    },
    rejoined: () => {
      if (!closed) greet();
    },
    figures: () => ({ kind: transport.kind, subjects: held.size, peers: peers.size, ...transport.traffic }),
    get ready() {
      return transport.ready;
    },
    onReady: (handler) => transport.onReady(handler),
    async close() {
      if (closed) return;
      closed = true;
      for (const w of waiting.values()) w.done();
      flush();
      sendControl(ALL, { type: "interest", from: processId, add: [], remove: [], reset: true, leaving: true });
      await transport.close();
    },
  };
};
