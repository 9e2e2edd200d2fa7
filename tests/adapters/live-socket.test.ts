import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket as ServerSocket } from "ws";
import type { AddressInfo } from "node:net";
import { createVirtualClock } from "../../adapters/clock/index.ts";
import { memoryStorage } from "../../adapters/storage/index.ts";
import {
  createLiveSocket,
  PING_INTERVAL_MS,
  RECONNECT_ATTEMPTS,
  RECONNECT_INTERVAL_MS,
  type LiveSocket,
} from "../../adapters/socket/index.ts";
import { nodeWebSocket } from "../../adapters/socket/node-socket.ts";
import { SocketState } from "../../core/model/enums.ts";
import type { LiveMessage } from "../../core/model/live.ts";
import { StorageKeys } from "../../core/ports.ts";

// The live socket against a small ws server on port 0. Real sockets deliver events; the virtual clock drives the
// 15 s ping and the 1 s reconnect, so nothing here waits on wall-clock timers.

let wss: WebSocketServer;
let url: string;
const received: unknown[] = [];
const connections: ServerSocket[] = [];
/** Each connection's request path and query, in order. */
const requested: string[] = [];
const waiters: Array<() => void> = [];
const notify = () => waiters.splice(0).forEach((w) => w());
const until = async (check: () => boolean) => {
  while (!check())
    await new Promise<void>((r) => {
      waiters.push(r);
      setTimeout(r, 50);
    });
};

beforeAll(async () => {
  wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((r) => wss.on("listening", () => r()));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api/ws`;
  wss.on("connection", (socket, req) => {
    connections.push(socket);
    requested.push(req.url ?? "");
    notify();
    socket.on("message", (raw) => {
      received.push(JSON.parse(raw.toString()));
      notify();
    });
  });
});
afterAll(() => new Promise<void>((r) => wss.close(() => r())));

const make = () => {
  const clock = createVirtualClock();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const states: SocketState[] = [];
  const invalid: string[] = [];
  const socket: LiveSocket = createLiveSocket({ url, storage, clock, create: nodeWebSocket, onInvalidMessage: (_, t) => invalid.push(t) });
  socket.onState((s) => states.push(s));
  return { clock, storage, socket, states, invalid };
};

/** A token as the server makes them (header.payload.signature, base64url), with this payload. */
const tokenWith = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.signature`;

describe("live socket (seeds §7 'Live socket')", () => {
  it("names the session's organisation in the address's route parameter, for a cluster's proxy (issue 32)", async () => {
    const { storage, socket } = make();
    const organisationId = "0b6f3c9e-7d1a-4c8e-9f3b-2a5d6e7f8a9b";
    storage.session.set(
      StorageKeys.session.accessToken,
      tokenWith({ role: "user", username: "u", email: "u@example.org", exp: 4_000_000_000, organisationId }),
    );
    const before = requested.length;
    socket.connect();
    await until(() => requested.length > before);
    expect(requested.at(-1)).toBe(`/api/ws?route=${organisationId}`);
    socket.close();
    await until(() => socket.state === SocketState.Closed);
    // Without an organisation in the token (an unreadable token, or an administrator's): the address as configured.
    storage.session.set(StorageKeys.session.accessToken, "tok");
    socket.connect();
    await until(() => requested.length > before + 1);
    expect(requested.at(-1)).toBe("/api/ws");
    socket.close();
    await until(() => socket.state === SocketState.Closed);
  });

  it("'On open the client sends a logged-in event with the access token and message, plus a ping; a heartbeat ping is sent every 15 s'", async () => {
    received.length = 0;
    const { clock, socket, states } = make();
    expect(socket.state).toBe(SocketState.Uninstantiated);
    socket.connect();
    await until(() => received.length >= 2);
    expect(received[0]).toEqual({ type: "logged_in", accessToken: "tok", message: "logged in" });
    expect(received[1]).toEqual({ type: "ping" });
    expect(states).toEqual([SocketState.Connecting, SocketState.Open]);
    clock.advance(PING_INTERVAL_MS - 1);
    clock.advance(1);
    await until(() => received.length >= 3);
    expect(received[2]).toEqual({ type: "ping" });
    socket.close();
    await until(() => socket.state === SocketState.Closed);
    expect(states.slice(-2)).toEqual([SocketState.Closing, SocketState.Closed]);
    expect(clock.pending()).toBe(0);
  });

  it("decodes incoming live messages once, by type and operation; drops others naming the field; stores a carried accessToken", async () => {
    const storage = memoryStorage();
    const invalid: Array<{ field: string; text: string }> = [];
    const reporting = createLiveSocket({
      url,
      storage,
      clock: createVirtualClock(),
      create: nodeWebSocket,
      onInvalidMessage: (e, text) => invalid.push({ field: e.field, text }),
    });
    const messages: LiveMessage[] = [];
    reporting.subscribe((m) => messages.push(m));
    const before = connections.length;
    reporting.connect();
    await until(() => connections.length > before && reporting.state === SocketState.Open);
    const server = connections.at(-1)!;
    server.send(JSON.stringify({ type: "device", operation: "update", data: { id: "d" } }));
    server.send(JSON.stringify({ type: "device", operation: "update", data: { deviceSn: "VR1", status: "weird" }, accessToken: "newer" }));
    server.send(JSON.stringify({ type: "nonsense" }));
    server.send("not json");
    await until(() => messages.length >= 1 && invalid.length >= 3);
    // "an unknown value falls back to not connected": the data was decoded by its type and operation, here.
    expect(messages).toEqual([
      { type: "device", operation: "update", data: { deviceSn: "VR1", status: "notconnected" }, accessToken: "newer" },
    ]);
    expect(invalid.map((i) => i.field)).toEqual(["data.deviceSn", "type", ""]);
    expect(storage.session.get(StorageKeys.session.accessToken)).toBe("newer");
    reporting.close();
  });

  it("'reconnect every 1 s' after the server drops the connection, 'up to 9999 attempts'", async () => {
    expect(RECONNECT_INTERVAL_MS).toBe(1000);
    expect(RECONNECT_ATTEMPTS).toBe(9999);
    const { clock, socket } = make();
    const before = connections.length;
    socket.connect();
    await until(() => socket.state === SocketState.Open);
    connections.at(-1)!.terminate();
    await until(() => socket.state === SocketState.Closed);
    expect(socket.lastCloseCode).toBe(1006);
    expect(socket.reconnectAttempts).toBe(1);
    clock.advance(999);
    expect(socket.state).toBe(SocketState.Closed);
    clock.advance(1);
    expect(socket.state).toBe(SocketState.Connecting);
    await until(() => socket.state === SocketState.Open);
    expect(connections.length).toBe(before + 2);
    expect(socket.reconnectAttempts).toBe(0);
    socket.close();
  });

  it("stops after the last attempt when the server is gone", async () => {
    const clock = createVirtualClock();
    const socket = createLiveSocket({
      url: "ws://127.0.0.1:1/api/ws",
      storage: memoryStorage(),
      clock,
      create: nodeWebSocket,
      reconnectAttempts: 2,
    });
    socket.connect();
    for (let attempt = 1; attempt <= 2; attempt++) {
      await until(() => socket.state === SocketState.Closed);
      expect(socket.reconnectAttempts).toBe(attempt);
      clock.advance(RECONNECT_INTERVAL_MS);
    }
    await until(() => socket.state === SocketState.Closed);
    expect(clock.pending()).toBe(0);
    socket.close();
  });

  it("closing while still connecting ends in closed without throwing", async () => {
    const { socket, states, clock } = make();
    socket.connect();
    expect(socket.state).toBe(SocketState.Connecting);
    expect(() => socket.close()).not.toThrow();
    await until(() => socket.state === SocketState.Closed);
    expect(states.at(-1)).toBe(SocketState.Closed);
    expect(clock.pending()).toBe(0);
  });
});
