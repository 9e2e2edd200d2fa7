import type { Subject } from "./subjects.ts";

// What carries bus messages between processes (issue 32 §2): PostgreSQL's LISTEN/NOTIFY (postgres-transport.ts, the
// default: nothing more to run) or NATS (nats-transport.ts, chosen by NATS_URL). A transport moves JSON text on
// subjects; the routed bus (routed-bus.ts) decides what is worth sending and decodes what arrives.

export interface Traffic {
  /** Messages this process sent to other processes, and their bytes. */
  sent: number;
  sentBytes: number;
  /** Messages it received from other processes. */
  received: number;
  /** Payloads that did not decode and were skipped. */
  skipped: number;
}

export const noTraffic = (): Traffic => ({ sent: 0, sentBytes: 0, received: 0, skipped: 0 });

export interface BusTransport {
  readonly kind: "postgres" | "nats";
  /** Queues one message (JSON text) for a subject. Messages leave in publish order per subject. */
  send(subject: Subject, json: string): void;
  /** Resolves once every message sent to the subject after this point will reach this process. */
  listen(subject: Subject): Promise<void>;
  /** Stops hearing the subject. */
  unlisten(subject: Subject): Promise<void>;
  /** Other processes' messages, parsed but not decoded (this process's own are never handed back). */
  onReceive(handler: (subject: Subject, body: unknown) => void): void;
  /** Hearing the others: false while the connection is lost (readiness false, no new sockets). */
  readonly ready: boolean;
  onReady(handler: (ready: boolean) => void): void;
  readonly traffic: Traffic;
  close(): Promise<void>;
}
