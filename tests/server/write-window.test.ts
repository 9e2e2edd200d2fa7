import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { knowStream, sendInWindow, WRITE_WINDOW_MS } from "../../simulator/server/live/write-window.ts";

// The live hub's writes (simulator/server/live/write-window.ts): a browser's frames within WRITE_WINDOW_MS leave in one
// write of its connection, in order, each held for its window, and a close sent after them arrives after them.

interface Pair {
  readonly server: WebSocket;
  readonly client: WebSocket;
  /** The writes the server's connection made so far (each a write or writev to the kernel). */
  writes(): number;
  readonly received: string[];
  /** When each frame reached the client (performance.now()). */
  readonly arrivals: number[];
}

let http: Server | undefined;
afterEach(() => {
  http?.close();
  http = undefined;
});

const connect = async (): Promise<Pair> => {
  const wss = new WebSocketServer({ noServer: true });
  let writes = 0;
  const accepted = new Promise<WebSocket>((resolve) => {
    http = createServer();
    http.on("upgrade", (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        const raw = socket as Socket;
        // Counted where the stream hands its chunks to the kernel: one call per write, however many chunks.
        const write = raw._write.bind(raw);
        const writev = raw._writev!.bind(raw);
        raw._write = (...a: Parameters<typeof write>) => (writes++, write(...a));
        raw._writev = (...a: Parameters<typeof writev>) => (writes++, writev(...a));
        knowStream(ws, socket);
        resolve(ws);
      }),
    );
  });
  await new Promise<void>((resolve) => http!.listen(0, "127.0.0.1", resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(http!.address() as AddressInfo).port}`);
  const received: string[] = [];
  const arrivals: number[] = [];
  client.on("message", (d) => {
    received.push(d.toString());
    arrivals.push(performance.now());
  });
  await new Promise((resolve) => client.once("open", resolve));
  const server = await accepted;
  return { server, client, writes: () => writes, received, arrivals };
};

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("a browser's live frames", () => {
  it("leave in one write when sent within the window, in the order sent", async () => {
    const p = await connect();
    const before = p.writes();
    for (let i = 0; i < 20; i++) sendInWindow(p.server, Buffer.from(JSON.stringify({ n: i })));
    expect(p.writes() - before).toBe(0); // held by the window
    await until(() => p.received.length === 20);
    expect(p.writes() - before).toBe(1);
    expect(p.received.map((t) => (JSON.parse(t) as { n: number }).n)).toEqual([...Array(20).keys()]);
    p.client.close();
  });

  it("in two windows leave in two writes, each held for its window", async () => {
    const p = await connect();
    const before = p.writes();
    const sent = performance.now();
    sendInWindow(p.server, Buffer.from("first"));
    await until(() => p.received.length === 1);
    // Held for its window (a timer fires no earlier than asked, give or take the clock's rounding).
    expect(p.arrivals[0]! - sent).toBeGreaterThanOrEqual(WRITE_WINDOW_MS - 1);
    sendInWindow(p.server, Buffer.from("second"));
    await until(() => p.received.length === 2);
    expect(p.received).toEqual(["first", "second"]);
    expect(p.writes() - before).toBe(2);
    p.client.close();
  });

  it("arrive before a close sent after them", async () => {
    const p = await connect();
    const closed = new Promise<number>((resolve) => p.client.once("close", (code) => resolve(code)));
    sendInWindow(p.server, Buffer.from("last words"));
    p.server.close(4001, "token_expired");
    expect(await closed).toBe(4001);
    expect(p.received).toEqual(["last words"]);
  });
});
