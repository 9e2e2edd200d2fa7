import { Result } from "effect";
import type { WebSocket } from "ws";
import type { DeviceBattery } from "../../../core/model/device.ts";
import type { LiveHub, LocalLiveHub } from "../live/hub.ts";
import type { Bus } from "./bus.ts";
import { liveEventOf, liveMessage, type BusMessageOf } from "./messages.ts";
import { orgSubject } from "./subjects.ts";

// Live events and ended sessions through the bus: `local` holds this process's browser sockets; what any process
// publishes reaches them, and what is published here reaches the other processes that hold the organisation's subject.
// This process holds an organisation's subject while at least one browser of it is connected here (issue 32 §1):
// a process with no browser of an organisation hears none of its events, progress frames included.
// An event is made into JSON text once, where it is published (messages.ts): that text goes to this process's sockets
// and, as it is, to the other processes' (no parsing, decoding or stringifying it again on its way).

export const liveThroughBus = (local: LocalLiveHub, bus: Bus): LiveHub => {
  const releases = new Map<WebSocket, () => void>();
  bus.subscribe((m) => {
    if (m.type === "live") local.sendText(m.organisationId, m.text);
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
    publish: (organisationId, event) => bus.publish(liveMessage(organisationId, event)),
    endSessions: (userId, reason, which = {}) => bus.publish({ type: "sessions_ended", userId, reason, ...which }),
  };
};

/** The battery a device update carries (one from another process: server.ts keeps it for device/all), decoded from the
 * event's text; only an update whose text names a battery is decoded (a heartbeat's names it only when it changed).
 * One that does not decode is left to the browsers, which decode and report it themselves. */
export const batteryHeard = (
  m: BusMessageOf<"live">,
): { readonly deviceSn: string; readonly battery: DeviceBattery; readonly lastSeen: string } | undefined => {
  if (m.eventType !== "device" || m.operation !== "update" || !m.text.includes('"battery":')) return undefined;
  const event = liveEventOf(m);
  if (Result.isFailure(event) || event.success.type !== "device" || event.success.operation !== "update") return undefined;
  const { deviceSn, data } = event.success;
  return deviceSn && data.battery && data.lastSeen ? { deviceSn, battery: data.battery, lastSeen: data.lastSeen } : undefined;
};
