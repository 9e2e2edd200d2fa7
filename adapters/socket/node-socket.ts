import WebSocket from "ws";
import type { WebSocketFactory, WebSocketLike } from "./live-socket.ts";

/** The `ws` package's WebSocket (Node: the CLI and contract tests). Its on* handlers mirror the browser's. */
export const nodeWebSocket: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;
