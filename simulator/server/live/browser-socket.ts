import type { WebSocket } from "ws";
import { Result } from "effect";
import { decodeJson } from "../../../core/model/decode.ts";
import { LiveControlMessageSchema } from "../../../core/model/live.ts";
import type { ServerContext } from "../context.ts";
import { send } from "./hub.ts";
import { log } from "../log.ts";

// /api/ws: a browser's live socket. The client opens with {type:"logged_in", accessToken, message} and a ping; the
// server answers pong to every ping. Until the handshake succeeds nothing is delivered. The session's token expiry is
// watched: when it passes, the client gets token_expired and the socket closes. A later logged_in with a fresher token
// extends the session.

export const acceptBrowserSocket = (ctx: ServerContext, socket: WebSocket) => {
  let expiresAtMs = 0;
  let loggedIn = false;
  let sessionId: string | undefined;
  let ticks = 0;
  const timer = setInterval(() => {
    if (!loggedIn) return;
    if (ctx.now() >= expiresAtMs) {
      send(socket, { type: "token_expired", message: "Your session has expired, please log in again." });
      socket.close(4001, "token_expired");
      return;
    }
    // Sessions ended here close their sockets at once (live hub); one ended by another server process on the same
    // database is noticed here within a few seconds.
    if (++ticks % 5 === 0 && sessionId)
      void ctx.sessions.check(sessionId, ctx.now()).then(
        (s) => {
          if (s.open || socket.readyState !== socket.OPEN) return;
          if (s.ended === "another_session_opened")
            send(socket, { type: "another_session_opened", message: "The same user logged in from another web client" });
          else send(socket, { type: "token_verification_error", message: "Your session has ended, please log in again." });
          socket.close(4001, s.ended === "another_session_opened" ? "another_session_opened" : "token_verification_error");
        },
        () => undefined,
      );
  }, 1000);
  timer.unref();
  socket.on("close", () => {
    clearInterval(timer);
    ctx.live.remove(socket);
  });
  socket.on("error", () => socket.terminate());
  // One message at a time, in order: a ping sent after logged_in is answered once the session is registered.
  let chain = Promise.resolve();
  socket.on("message", (raw) => {
    chain = chain.then(() => handle(raw.toString())).catch((e) => log.warn("live_socket_message_failed", { error: e }));
  });
  const handle = async (raw: string) => {
    const decoded = decodeJson(LiveControlMessageSchema, raw);
    if (Result.isFailure(decoded)) return; // browsers only send control messages; anything else is ignored
    const message = decoded.success;
    if (message.type === "ping") return send(socket, { type: "pong" });
    if (message.type !== "logged_in") return;
    const check = await ctx.authenticate(message.accessToken);
    if (!check.ok) {
      if (check.ended === "another_session_opened")
        send(socket, { type: "another_session_opened", message: "The same user logged in from another web client" });
      else
        send(socket, {
          type: check.reason,
          message: check.reason === "token_expired" ? "Your session has expired, please log in again." : "The token could not be verified.",
        });
      socket.close(4001, check.ended === "another_session_opened" ? "another_session_opened" : check.reason);
      return;
    }
    expiresAtMs = check.claims.exp * 1000;
    // Registered under the token's session, so ending that session closes this socket (a later logged_in may bring a
    // token of a newer session).
    loggedIn = true;
    sessionId = check.claims.sid;
    ctx.live.remove(socket);
    await ctx.live.add({ socket, organisationId: check.claims.organisationId, userId: check.claims.sub, sessionId: check.claims.sid });
  };
};
