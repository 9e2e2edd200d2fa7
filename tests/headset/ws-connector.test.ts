import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";

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
