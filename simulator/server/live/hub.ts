import type { WebSocket } from "ws";
import type { LiveEvent, LiveMessage } from "../../../core/model/live.ts";

// Browser live sockets that completed the logged-in handshake, grouped by organisation. Events are delivered only
// within the organisation they belong to.

export interface LiveClient {
  readonly socket: WebSocket;
  readonly organisationId: string;
  readonly userId: string;
  readonly sessionId: string | undefined;
}

export interface LiveHub {
  add(client: LiveClient): void;
  remove(socket: WebSocket): void;
  publish(organisationId: string, event: LiveEvent): void;
  /** A newer login of `userId` (session `keep`): every other session of that user is told and closed. */
  endOtherSessions(userId: string, keep: string): void;
  /** The user was deleted or re-roled: their sockets are told their token no longer holds and closed. */
  endUser(userId: string): void;
  count(): number;
}

export const send = (socket: WebSocket, message: LiveMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

export const liveHub = (): LiveHub => {
  const byOrg = new Map<string, Set<LiveClient>>();
  const bySocket = new Map<WebSocket, LiveClient>();
  const end = (client: LiveClient, message: LiveMessage) => {
    send(client.socket, message);
    client.socket.close(4001, message.type);
  };
  return {
    add(client) {
      bySocket.set(client.socket, client);
      const set = byOrg.get(client.organisationId) ?? new Set();
      set.add(client);
      byOrg.set(client.organisationId, set);
    },
    remove(socket) {
      const client = bySocket.get(socket);
      if (!client) return;
      bySocket.delete(socket);
      byOrg.get(client.organisationId)?.delete(client);
    },
    publish(organisationId, event) {
      const text = JSON.stringify(event);
      for (const client of byOrg.get(organisationId) ?? []) if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
    },
    endOtherSessions(userId, keep) {
      for (const client of [...bySocket.values()])
        if (client.userId === userId && client.sessionId !== keep)
          end(client, { type: "another_session_opened", message: "The same user logged in from another web client" });
    },
    endUser(userId) {
      for (const client of [...bySocket.values()])
        if (client.userId === userId) end(client, { type: "token_verification_error", message: "The account changed; log in again" });
    },
    count: () => bySocket.size,
  };
};
