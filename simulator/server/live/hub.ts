import type { WebSocket } from "ws";
import type { LiveEvent, LiveMessage } from "../../../core/model/live.ts";
import type { SessionEnd } from "../auth/sessions.ts";
import { sendInWindow } from "./write-window.ts";

// Browser live sockets that completed the logged-in handshake, grouped by organisation. Events are delivered only
// within the organisation they belong to.

export interface LiveClient {
  readonly socket: WebSocket;
  readonly organisationId: string;
  readonly userId: string;
  readonly sessionId: string | undefined;
}

export interface LiveHub {
  /** Resolves once the socket hears its organisation's events from every process. */
  add(client: LiveClient): Promise<void>;
  remove(socket: WebSocket): void;
  publish(organisationId: string, event: LiveEvent): void;
  /** Sessions of `userId` ended (every one, all but `keep`, or `only` one): their sockets are told why and closed. */
  endSessions(userId: string, reason: SessionEnd, which?: { readonly keep?: string; readonly only?: string }): void;
  count(): number;
}

/** This process's own sockets, which also take an event already made into its JSON text (bus/live.ts). */
export interface LocalLiveHub extends LiveHub {
  /** Sends the text to the organisation's open sockets: made once, for all of them. */
  sendText(organisationId: string, text: string): void;
}

export const send = (socket: WebSocket, message: LiveMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

export const liveHub = (): LocalLiveHub => {
  const byOrg = new Map<string, Set<LiveClient>>();
  const bySocket = new Map<WebSocket, LiveClient>();
  const sendText = (organisationId: string, text: string) => {
    let frame: Buffer | undefined; // UTF-8 once for every socket, not by each socket's send
    for (const client of byOrg.get(organisationId) ?? [])
      if (client.socket.readyState === client.socket.OPEN) sendInWindow(client.socket, (frame ??= Buffer.from(text)));
  };
  const end = (client: LiveClient, message: LiveMessage) => {
    send(client.socket, message);
    client.socket.close(4001, message.type);
  };
  return {
    async add(client) {
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
    publish: (organisationId, event) => sendText(organisationId, JSON.stringify(event)),
    sendText,
    endSessions(userId, reason, which = {}) {
      // The seeds' client: another_session_opened shows its own dialog; any other end is a token that no longer holds.
      const message: LiveMessage =
        reason === "another_session_opened"
          ? { type: "another_session_opened", message: "The same user logged in from another web client" }
          : { type: "token_verification_error", message: "Your session has ended, please log in again." };
      for (const client of [...bySocket.values()])
        if (
          client.userId === userId &&
          (which.keep === undefined || client.sessionId !== which.keep) &&
          (which.only === undefined || client.sessionId === which.only)
        )
          end(client, message);
    },
    count: () => bySocket.size,
  };
};
