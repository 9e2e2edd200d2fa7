import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { deviceConnector, wsConnector } from "../../simulator/headset/ws-connector.ts";

// The ws connector notices a half-open connection (no pong to its pings: the network vanished without a close) and
// drops it, so the headset reconnects; a live server's automatic pongs keep the link. Real time, short intervals.

const servers: WebSocketServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const serve = (autoPong: boolean) =>
  new Promise<string>((resolve) => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/device", autoPong });
    servers.push(wss);
    wss.on("listening", () => resolve(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/device`));
  });

/** Open a link, wait until `done(events)` or `ms`, close it; the events seen. */
const openFor = async (url: string, ms: number, done: (events: string[]) => boolean = () => false) => {
  const events: string[] = [];
  let link: { close(): void } | null = null;
  wsConnector(url, { pingMs: 100, deadAfterMs: 1_000 }).open({
    onOpen: (l) => {
      link = l;
      events.push("open");
    },
    onMessage: () => undefined,
    onClose: () => events.push("close"),
  });
  for (const end = Date.now() + ms; Date.now() < end && !done(events); ) await new Promise((r) => setTimeout(r, 50));
  (link as { close(): void } | null)?.close();
  return events;
};

describe("ws connector", () => {
  it("drops a link whose pings go unanswered", async () => {
    expect(await openFor(await serve(false), 10_000, (e) => e.includes("close"))).toEqual(["open", "close"]);
  });

  it("keeps a link whose server answers pings", async () => {
    // Over 2.5 deadlines' worth of time (only a stall of the whole process for a second would break it).
    expect(await openFor(await serve(true), 2_500)).toEqual(["open"]);
  });
});

// A cluster's processes: headsets spread over the addresses and move on to the next when theirs goes away.
describe("device connector over several addresses", () => {
  const serverAt = (url: string) => servers.find((s) => url.endsWith(`:${(s.address() as { port: number }).port}/device`))!;
  /** Opens links through the connector, reopening after each close as the headset's uplink does; the addresses reached. */
  const follow = (urls: readonly string[], index: number) => {
    const reached: string[] = [];
    const connector = deviceConnector(urls, index, { pingMs: 100, deadAfterMs: 1_000 });
    let stopped = false;
    const open = () =>
      connector.open({
        onOpen: () => undefined,
        onMessage: (text) => reached.push(text),
        onClose: () => void (stopped || setTimeout(open, 20)),
      });
    open();
    return { reached, stop: () => (stopped = true) };
  };
  /** A server that greets every link with its own address. */
  const greeting = async () => {
    const url = await serve(true);
    serverAt(url).on("connection", (ws) => ws.send(url));
    return url;
  };
  const until = async (check: () => boolean) => {
    for (const end = Date.now() + 5_000; Date.now() < end && !check(); ) await new Promise((r) => setTimeout(r, 20));
    expect(check()).toBe(true);
  };

  it("names the headset's route in the address it opens (issue 32), on every address", async () => {
    const urls = [await serve(true), await serve(true)];
    const asked: string[] = [];
    for (const url of urls) serverAt(url).on("connection", (ws, req) => (asked.push(req.url ?? ""), ws.close()));
    const connector = deviceConnector(urls, 0, { pingMs: 100, deadAfterMs: 1_000 });
    for (const route of ["org-1", undefined]) {
      const before = asked.length;
      connector.open({ onOpen: () => undefined, onMessage: () => undefined, onClose: () => undefined }, route);
      await until(() => asked.length > before);
    }
    expect(asked).toEqual(["/device?route=org-1", "/device"]);
  });

  it("starts headset i at address i mod n", async () => {
    const urls = [await greeting(), await greeting(), await greeting()];
    const links = [0, 1, 2, 3].map((i) => follow(urls, i));
    await until(() => links.every((l) => l.reached.length === 1));
    expect(links.map((l) => l.reached[0])).toEqual([urls[0], urls[1], urls[2], urls[0]]);
    for (const l of links) l.stop();
  });

  it("moves on to the next address when its process goes away, and past one that refuses connections", async () => {
    const urls = [await greeting(), await greeting(), await greeting()];
    // The second process is already gone: nothing listens there any more.
    const second = serverAt(urls[1]!);
    await new Promise((r) => second.close(r));
    servers.splice(servers.indexOf(second), 1);
    const link = follow(urls, 0);
    await until(() => link.reached.length === 1);
    // The first process dies: its links drop without a closing handshake.
    const first = serverAt(urls[0]!);
    for (const c of first.clients) c.terminate();
    first.close();
    servers.splice(servers.indexOf(first), 1);
    await until(() => link.reached.length === 2);
    expect(link.reached).toEqual([urls[0], urls[2]]);
    link.stop();
  });

  it("stays with a single address", async () => {
    const url = await greeting();
    const link = follow([url], 5);
    await until(() => link.reached.length === 1);
    for (const c of serverAt(url).clients) c.terminate();
    await until(() => link.reached.length === 2);
    expect(link.reached).toEqual([url, url]);
    link.stop();
  });
});
