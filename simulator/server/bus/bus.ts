import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import type { BusMessage } from "./messages.ts";

// The fan-out between server processes that share one database (issue 17). A process publishes what others must
// hear (live events, ended sessions, device commands and their acks, queue pushes, refusals); subscribers run for
// every message, this process's own at once and in publish order, other processes' in the order they published.
// Two implementations, chosen by the database (open.ts): on PGlite one process holds the data, so the bus is this
// process alone (localBus); on PostgreSQL it is LISTEN/NOTIFY (postgres-bus.ts).

export type BusHandler = (message: BusMessage, fromHere: boolean) => void;

export interface Bus {
  /** This process among the others (device commands and acks are addressed by it). */
  readonly processId: string;
  publish(message: BusMessage): void;
  subscribe(handler: BusHandler): void;
  /** Hearing the others: false while the connection to the database is lost (readiness false, no new sockets). */
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

/** One process alone (PGlite): publishing is delivering here. */
export const localBus = (): Bus => {
  const handlers: BusHandler[] = [];
  return {
    processId: randomUUID(),
    publish: (message) => deliver(handlers, message, true),
    subscribe: (handler) => void handlers.push(handler),
    ready: true,
    onReady: () => undefined,
    close: async () => undefined,
  };
};
