import type { WebSocketFactory, WebSocketLike } from "./live-socket.ts";

/** The browser's WebSocket. */
export const browserWebSocket: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;
