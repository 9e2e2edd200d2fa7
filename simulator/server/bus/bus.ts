import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import type { BusMessage } from "./messages.ts";
import type { Subject } from "./subjects.ts";

// The fan-out between server processes that share one database (issue 17), routed by interest (issue 32). A process
// publishes what others must hear (live events, ended sessions, device commands and their acks, queue pushes,
// refusals); subscribers run for every message this process publishes, at once and in publish order, and for the
// others' messages on subjects it holds (subjects.ts), per subject in the order they were published. Implementations,
// chosen in open.ts: on PGlite one process holds the data, so the bus is this process alone (localBus); on PostgreSQL
// the routed bus (routed-bus.ts) over LISTEN/NOTIFY (postgres-transport.ts) or, with NATS_URL, over NATS
// (nats-transport.ts).

export type BusHandler = (message: BusMessage, fromHere: boolean) => void;

/** What /api/ready and bench:cluster show of the bus. */
export interface BusFigures {
  readonly kind: "local" | "postgres" | "nats";
  /** Subjects this process holds. */
  readonly subjects: number;
  /** Other processes it knows of. */
  readonly peers: number;
  readonly sent: number;
  readonly sentBytes: number;
  readonly received: number;
  readonly skipped: number;
}

export interface Bus {
  /** This process among the others (device commands and acks are addressed by it). */
  readonly processId: string;
  readonly kind: BusFigures["kind"];
  publish(message: BusMessage): void;
  subscribe(handler: BusHandler): void;
  /** Holds a subject: its messages from other processes reach this one until the returned release is called.
   * Resolves once the other processes know (or did not answer in time). Holds are counted per subject. */
  interest(subject: Subject): Promise<() => void>;
  /** The processes the roster counts alive: others, once silent a while, are forgotten with their interest. */
  keepPeers(alive: Iterable<string>): void;
  /** This process's lease had run out (the others may have forgotten it): it tells them again what it holds. */
  rejoined(): void;
  figures(): BusFigures;
  /** Hearing the others: false while the connection to the bus is lost (readiness false, no new sockets). */
  readonly ready: boolean;
  /** Told when `ready` changes. */
  onReady(handler: (ready: boolean) => void): void;
  close(): Promise<void>;
}

/** Runs the handlers for one message; a handler that throws is one handler's fault, not the others'. */
export const deliver = (handlers: ReadonlyArray<BusHandler>, message: BusMessage, fromHere: boolean) => {
  for (const handler of handlers)
    try {
      handler(message, fromHere);
    } catch (e) {
      log.warn("bus_handler_failed", { message: message.type, error: e });
    }
};

/** One process alone (PGlite): publishing is delivering here; nothing crosses to anyone. */
export const localBus = (): Bus => {
  const handlers: BusHandler[] = [];
  const held = new Map<Subject, number>();
  return {
    processId: randomUUID(),
    kind: "local",
    publish: (message) => deliver(handlers, message, true),
    subscribe: (handler) => void handlers.push(handler),
    async interest(subject) {
      held.set(subject, (held.get(subject) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (held.get(subject) ?? 1) - 1;
        if (n > 0) held.set(subject, n);
        else held.delete(subject);
      };
    },
    keepPeers: () => undefined,
    rejoined: () => undefined,
    figures: () => ({ kind: "local", subjects: held.size, peers: 0, sent: 0, sentBytes: 0, received: 0, skipped: 0 }),
    ready: true,
    onReady: () => undefined,
    close: async () => undefined,
  };
};
