import { PACK_MS } from "../../simulator/server/bus/routed-bus.ts";
import { noTraffic, type BusTransport } from "../../simulator/server/bus/transport.ts";

// Transports joined in memory, for the routed bus's own tests: each delivers what it sends to every other transport
// listening on the subject, one macrotask later (as a network would, never in the sender's call stack), in send order.
// The real transports (PostgreSQL, NATS) are tested against real servers in tests/server/bus/nats-transport.test.ts,
// tests/server/processes and tests/cluster.

export interface MemoryNetwork {
  transport(processId: string): BusTransport;
  /** Resolves once everything sent so far has been delivered (and what that caused, a few rounds deep). */
  settle(): Promise<void>;
  /** A process that hears nothing and answers nothing (it died without a word). */
  mute(processId: string): void;
}

export const memoryNetwork = (): MemoryNetwork => {
  const members = new Map<string, { listening: Set<string>; receive: Array<(subject: string, body: unknown) => void> }>();
  const muted = new Set<string>();
  let inFlight = 0;
  return {
    transport(processId) {
      const me = { listening: new Set<string>(), receive: [] as Array<(subject: string, body: unknown) => void> };
      members.set(processId, me);
      const traffic = noTraffic();
      return {
        kind: "postgres",
        send(subject, json) {
          if (muted.has(processId)) return;
          traffic.sent++;
          traffic.sentBytes += json.length;
          for (const [id, other] of members) {
            if (id === processId || muted.has(id) || !other.listening.has(subject)) continue;
            inFlight++;
            setTimeout(() => {
              inFlight--;
              if (!other.listening.has(subject)) return;
              for (const r of other.receive) r(subject, JSON.parse(json));
            }, 0);
          }
        },
        listen: async (subject) => void me.listening.add(subject),
        unlisten: async (subject) => void me.listening.delete(subject),
        onReceive: (handler) => void me.receive.push(handler),
        ready: true,
        onReady: () => undefined,
        traffic,
        close: async () => void members.delete(processId),
      };
    },
    async settle() {
      // The routed bus holds what is published for PACK_MS before it sends it.
      await new Promise((r) => setTimeout(r, PACK_MS + 1));
      for (let round = 0; round < 20; round++) {
        await new Promise((r) => setTimeout(r, 1));
        if (inFlight === 0) return;
      }
    },
    mute: (id) => void muted.add(id),
  };
};
