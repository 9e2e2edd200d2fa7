import type { WebSocket } from "ws";
import type { LiveHub } from "../live/hub.ts";
import type { Bus } from "./bus.ts";
import { orgSubject } from "./subjects.ts";

// Live events and ended sessions through the bus: `local` holds this process's browser sockets; what any process
// publishes reaches them, and what is published here reaches the other processes that hold the organisation's subject.
// This process holds an organisation's subject while at least one browser of it is connected here (issue 32 §1):
// a process with no browser of an organisation hears none of its events, progress frames included.

export const liveThroughBus = (local: LiveHub, bus: Bus): LiveHub => {
  const releases = new Map<WebSocket, () => void>();
  bus.subscribe((m) => {
    if (m.type === "live") local.publish(m.organisationId, m.event);
    else if (m.type === "sessions_ended")
      local.endSessions(m.userId, m.reason, {
        ...(m.keep !== undefined ? { keep: m.keep } : {}),
        ...(m.only !== undefined ? { only: m.only } : {}),
      });
  });
  const letGo = (socket: WebSocket) => {
    releases.get(socket)?.();
    releases.delete(socket);
  };
  return {
    ...local,
    async add(client) {
      letGo(client.socket);
      // Held before the socket counts: events published anywhere after the handshake reach it.
      const release = await bus.interest(orgSubject(client.organisationId));
      // Closed while the others were being told: its close already ran remove(), so nothing may be kept for it.
      if (client.socket.readyState === client.socket.CLOSING || client.socket.readyState === client.socket.CLOSED) return release();
      releases.set(client.socket, release);
      await local.add(client);
    },
    remove(socket) {
      letGo(socket);
      local.remove(socket);
    },
    publish: (organisationId, event) => bus.publish({ type: "live", organisationId, event }),
    endSessions: (userId, reason, which = {}) => bus.publish({ type: "sessions_ended", userId, reason, ...which }),
  };
};
