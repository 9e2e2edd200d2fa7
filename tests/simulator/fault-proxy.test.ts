import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { type FaultProxy, startFaultProxy } from "../../simulator/network/fault-proxy.ts";

// The fault proxy against a small ws echo server on /device (real sockets, real time, short faults): order kept under
// delays, a repeated frame arriving twice and intact (7-, 16- and 64-bit lengths), a cut refusing or blackholing then
// recovering, a stall holding bytes back, and half-open connections forwarding nothing and closing nothing.

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; Date.now() < end && !check(); ) await sleep(10);
  return check();
};

/** An echo server on /device that records what it received and its connections. */
const echoServer = async () => {
  const received: string[] = [];
  const sockets: WebSocket[] = [];
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/device", maxPayload: 1 << 20 });
  wss.on("connection", (ws) => {
    sockets.push(ws);
    ws.on("message", (d) => {
      received.push(d.toString());
      ws.send(d.toString());
    });
  });
  await new Promise((r) => wss.once("listening", r));
  closers.push(() => new Promise<void>((r) => wss.close(() => r())));
  return { port: (wss.address() as { port: number }).port, received, sockets };
};

const proxyTo = async (port: number): Promise<FaultProxy> => {
  const proxy = await startFaultProxy({ target: `ws://127.0.0.1:${port}`, seed: "test" });
  closers.push(() => proxy.close());
  return proxy;
};

/** A client through the proxy: resolves once open (or with null when it closed first), with what it heard. */
const client = async (url: string) => {
  const heard: string[] = [];
  const ws = new WebSocket(url, { handshakeTimeout: 2_000 });
  ws.on("error", () => undefined);
  ws.on("message", (d) => heard.push(d.toString()));
  let closed = false;
  ws.on("close", () => (closed = true));
  closers.push(() => ws.terminate());
  const opened = await new Promise<boolean>((resolve) => {
    ws.once("open", () => resolve(true));
    ws.once("close", () => resolve(false));
  });
  return { ws, heard, opened, closed: () => closed };
};

describe("fault proxy", () => {
  it("forwards /home/<id>/device as /device and refuses other paths", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("home-1"));
    expect(c.opened).toBe(true);
    c.ws.send("hello");
    expect(await until(() => c.heard.length === 1)).toBe(true);
    expect(c.heard).toEqual(["hello"]);
    expect((await client(`ws://127.0.0.1:${proxy.port}/device`)).opened).toBe(false);
    expect(proxy.counters.unknownPath).toBe(1);
  });

  it("delays every chunk by 100-400 ms and keeps their order", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("slow"));
    proxy.home("slow").delay(60_000);
    const sent = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const sentAt = new Map<string, number>();
    const roundTrips: number[] = [];
    c.ws.on("message", (d) => roundTrips.push(Date.now() - sentAt.get(d.toString())!));
    for (const m of sent) {
      sentAt.set(m, Date.now());
      c.ws.send(m);
      await sleep(5);
    }
    expect(await until(() => c.heard.length === sent.length, 15_000)).toBe(true);
    expect(echo.received).toEqual(sent);
    expect(c.heard).toEqual(sent);
    // Each message crossed the proxy there and back, at least 100 ms each way (chunks may carry several messages).
    expect(Math.min(...roundTrips)).toBeGreaterThanOrEqual(195);
    expect(proxy.counters.delayedChunks).toBeGreaterThanOrEqual(2);
  });

  it("writes a chosen frame twice, whole: 7-, 16- and 64-bit lengths", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("twice"));
    const small = "s".repeat(100);
    const medium = "m".repeat(3_000);
    const large = `${"L".repeat(100_000)}-end`;
    proxy.home("twice").repeatFrames(3);
    for (const m of [small, medium, large]) c.ws.send(m);
    c.ws.send("after");
    expect(await until(() => echo.received.length === 7)).toBe(true);
    expect(echo.received).toEqual([small, small, medium, medium, large, large, "after"]);
    expect(proxy.counters.framesRepeated).toBe(3);
  });

  it("a cut drops the home's connections and refuses new ones until it ends; other homes go on", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const before = await client(proxy.urlFor("cut"));
    const neighbour = await client(proxy.urlFor("next-door"));
    proxy.home("cut").cut(600, "refuse");
    expect(await until(() => before.closed())).toBe(true);
    expect((await client(proxy.urlFor("cut"))).opened).toBe(false);
    neighbour.ws.send("still here");
    expect(await until(() => neighbour.heard.length === 1)).toBe(true);
    await sleep(700);
    const after = await client(proxy.urlFor("cut"));
    expect(after.opened).toBe(true);
    after.ws.send("back");
    expect(await until(() => after.heard.includes("back"))).toBe(true);
    expect(proxy.counters).toMatchObject({ cuts: 1, connectionsCut: 1, refused: 1 });
  });

  it("a blackholing cut accepts new connections and never answers them", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    proxy.home("dark").cut(60_000, "blackhole");
    const ws = new WebSocket(proxy.urlFor("dark"), { handshakeTimeout: 500 });
    closers.push(() => ws.terminate());
    const events: string[] = [];
    ws.on("open", () => events.push("open"));
    ws.on("error", () => events.push("error"));
    expect(await until(() => events.includes("error"), 3_000)).toBe(true);
    expect(events).toEqual(["error"]);
    expect(echo.sockets).toHaveLength(0);
    expect(proxy.counters.blackholed).toBe(1);
  });

  it("a stall holds bytes back, then forwards them in order", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("stall"));
    proxy.home("stall").stall(400);
    c.ws.send("a");
    c.ws.send("b");
    await sleep(250);
    expect(echo.received).toEqual([]);
    expect(await until(() => c.heard.length === 2)).toBe(true);
    expect(c.heard).toEqual(["a", "b"]);
  });

  it("half-open: nothing forwarded either way and neither side's close passed on", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("half"));
    c.ws.send("before");
    expect(await until(() => c.heard.length === 1)).toBe(true);
    proxy.home("half").halfOpen();
    c.ws.send("into the void");
    echo.sockets[0]!.send("from the server");
    await sleep(300);
    expect(echo.received).toEqual(["before"]);
    expect(c.heard).toEqual(["before"]);
    // The server drops its end; the headset's end stays open and hears nothing of it.
    echo.sockets[0]!.terminate();
    await sleep(300);
    expect(c.closed()).toBe(false);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect(proxy.counters.connectionsHalfOpen).toBe(1);
    // New connections of the home work again.
    const next = await client(proxy.urlFor("half"));
    next.ws.send("new link");
    expect(await until(() => next.heard.length === 1)).toBe(true);
  });

  it("random faults at their rates (set while running); quiet() ends them", async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.port);
    const c = await client(proxy.urlFor("windy"));
    expect(c.opened).toBe(true);
    proxy.setRates({ stallsPerHour: 360_000, stallMs: [5, 5] }); // one every 10 ms on average
    await sleep(400);
    expect(proxy.counters.stalls).toBeGreaterThan(5);
    proxy.quiet();
    const stalls = proxy.counters.stalls;
    await sleep(100);
    expect(proxy.counters.stalls).toBe(stalls);
    c.ws.send("calm");
    expect(await until(() => c.heard.includes("calm"))).toBe(true);
  });
});
