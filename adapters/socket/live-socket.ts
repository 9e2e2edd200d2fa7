import { Result } from "effect";
import { parseJson, type DecodeError } from "../../core/model/decode.ts";
import { decodeLiveMessage, type LiveMessage } from "../../core/model/live.ts";
import { SocketState } from "../../core/model/enums.ts";
import { readTokenPayload } from "../../core/model/access-token.ts";
import { withRoute } from "../../core/model/socket-route.ts";
import { StorageKeys, type Clock, type Socket, type Storage } from "../../core/ports.ts";

// The live socket (scheduling seed §7 "Live socket", accounts seed §7 "Websocket"): "On open the client sends a
// logged-in event with the access token and message, plus a ping; a heartbeat ping is sent every 15 s; reconnect every
// 1 s", "up to 9999 attempts". Incoming frames are decoded once, here: an event by its type and operation
// (core/model/live.ts), so the client gets it typed. Each open names the session's organisation (read from its access
// token) in the address's route parameter, so a cluster's proxy places the socket with its organisation's headsets
// (core/model/socket-route.ts).

/** "heartbeat 15 s" (scheduling seed §9). */
export const PING_INTERVAL_MS = 15_000;
/** "reconnect 1 s, up to 9999 attempts" (scheduling seed §9). */
export const RECONNECT_INTERVAL_MS = 1_000;
export const RECONNECT_ATTEMPTS = 9_999;
/** The message of the logged-in event (the seeds name it, not its text). */
export const LOGGED_IN_MESSAGE = "logged in";

/** What both the browser WebSocket and the `ws` package's WebSocket offer. */
export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export interface LiveSocketOptions {
  readonly url: string;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly create: WebSocketFactory;
  readonly pingIntervalMs?: number;
  readonly reconnectIntervalMs?: number;
  readonly reconnectAttempts?: number;
  /** A frame that is not a live message (or an event whose data does not fit its type and operation): dropped, and
   * reported here with the field at fault. */
  readonly onInvalidMessage?: (error: DecodeError, text: string) => void;
}

/** The Socket port plus what tests and diagnostics want to see. */
export interface LiveSocket extends Socket {
  /** Reconnect attempts since the last successful open. */
  readonly reconnectAttempts: number;
  /** Close code of the last close, or null. 1000 is a normal close; 1006 an abnormal one. */
  readonly lastCloseCode: number | null;
}

const frameText = (data: unknown): string =>
  typeof data === "string" ? data : data instanceof ArrayBuffer ? new TextDecoder().decode(data) : String(data);

export function createLiveSocket(options: LiveSocketOptions): LiveSocket {
  const { clock, storage } = options;
  const pingEvery = options.pingIntervalMs ?? PING_INTERVAL_MS;
  const reconnectEvery = options.reconnectIntervalMs ?? RECONNECT_INTERVAL_MS;
  const maxAttempts = options.reconnectAttempts ?? RECONNECT_ATTEMPTS;

  let state: SocketState = SocketState.Uninstantiated;
  let ws: WebSocketLike | null = null;
  let pingTimer: unknown = null;
  let reconnectTimer: unknown = null;
  let attempts = 0;
  let wanted = false;
  let lastCloseCode: number | null = null;
  const messageListeners = new Set<(m: LiveMessage) => void>();
  const stateListeners = new Set<(s: SocketState) => void>();

  const setState = (next: SocketState) => {
    if (next === state) return;
    state = next;
    for (const l of [...stateListeners]) l(next);
  };
  const stopPing = () => {
    if (pingTimer !== null) clock.clearInterval(pingTimer);
    pingTimer = null;
  };
  const write = (message: LiveMessage) => {
    if (ws && state === SocketState.Open) ws.send(JSON.stringify(message));
  };

  function open() {
    reconnectTimer = null;
    setState(SocketState.Connecting);
    let socket: WebSocketLike;
    try {
      const route = readTokenPayload(storage.session.get(StorageKeys.session.accessToken))?.organisationId;
      socket = options.create(withRoute(options.url, route));
    } catch {
      afterClose(1006);
      return;
    }
    ws = socket;
    socket.onopen = () => {
      if (ws !== socket) return;
      attempts = 0;
      setState(SocketState.Open);
      const accessToken = storage.session.get(StorageKeys.session.accessToken);
      if (accessToken) write({ type: "logged_in", accessToken, message: LOGGED_IN_MESSAGE });
      write({ type: "ping" });
      stopPing();
      pingTimer = clock.setInterval(() => write({ type: "ping" }), pingEvery);
    };
    socket.onmessage = (event) => {
      if (ws !== socket) return;
      const text = frameText(event.data);
      const decoded = Result.flatMap(parseJson(text), decodeLiveMessage);
      if (Result.isFailure(decoded)) return options.onInvalidMessage?.(decoded.failure, text);
      const message = decoded.success;
      if ("accessToken" in message && message.type !== "logged_in" && message.accessToken)
        storage.session.set(StorageKeys.session.accessToken, message.accessToken);
      for (const l of [...messageListeners]) l(message);
    };
    socket.onerror = () => {
      // the close event follows and decides about reconnecting
    };
    socket.onclose = (event) => {
      if (ws !== socket) return;
      afterClose(event.code);
    };
  }

  function afterClose(code: number) {
    ws = null;
    lastCloseCode = code;
    stopPing();
    setState(SocketState.Closed);
    if (wanted && attempts < maxAttempts && reconnectTimer === null) {
      attempts += 1;
      reconnectTimer = clock.setTimeout(open, reconnectEvery);
    }
  }

  return {
    get state() {
      return state;
    },
    get reconnectAttempts() {
      return attempts;
    },
    get lastCloseCode() {
      return lastCloseCode;
    },
    connect() {
      wanted = true;
      if (ws !== null || reconnectTimer !== null) return;
      attempts = 0;
      open();
    },
    send: write,
    subscribe(listener) {
      messageListeners.add(listener);
      return () => void messageListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    close() {
      wanted = false;
      if (reconnectTimer !== null) clock.clearTimeout(reconnectTimer);
      reconnectTimer = null;
      stopPing();
      const socket = ws;
      if (socket === null) {
        if (state !== SocketState.Uninstantiated) setState(SocketState.Closed);
        return;
      }
      setState(SocketState.Closing);
      ws = null;
      socket.onopen = socket.onmessage = null;
      // Closing while still connecting makes `ws` emit an error event, which throws when nobody listens.
      socket.onerror = () => {};
      socket.onclose = () => {
        lastCloseCode = 1000;
        setState(SocketState.Closed);
      };
      try {
        socket.close(1000, "client closed");
      } catch {
        lastCloseCode = 1000;
        setState(SocketState.Closed);
      }
    },
  };
}
