import { Result } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { systemClock } from "../../adapters/clock/system-clock.ts";
import { PROTOCOL_VERSION, type ServerMessage, frame, readHeadsetFrame } from "../../core/device/protocol.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";
import { type FaultProxy, startFaultProxy } from "../../simulator/network/fault-proxy.ts";
import { rethrow, testConfig } from "./fake-server.ts";

// A home's link turns half-open (the network vanished, neither side told) just before the headset finishes a
// stand-alone test: the result it sends goes nowhere. The connector's watchdog (pings unanswered) drops the link, the
// headset reconnects through the proxy and uploads the pending result, which the server receives exactly once. And a
// cut that blackholes the home: the connector gives up each unanswered handshake, so after the cut the headset is back.
// Real sockets and real time; the headset at speed 1000 so its test takes a fraction of a second.

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check(); ) await sleep(20);
  return check();
};

const config = testConfig({ strategy: 2, sorsStage: 10, audioGuide: false, tutorial: false, trackGaze: false, stimuliUpdate: 1000 });

/** A device socket that welcomes, sets stand-alone mode and acknowledges each result, counting every frame of one. */
const deviceServer = async () => {
  const uploads = new Map<string, number>();
  let connections = 0;
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/device" });
  wss.on("connection", (ws) => {
    connections++;
    const send = (m: ServerMessage) => ws.send(frame(m));
    ws.on("message", (raw) => {
      const decoded = readHeadsetFrame(raw.toString());
      if (Result.isFailure(decoded)) throw new Error(`bad frame ${raw.toString()}`);
      const m = decoded.success;
      if (m.type === "hello") {
        send({ type: "welcome", protocolVersion: PROTOCOL_VERSION, deviceSn: m.deviceSn, alias: "Home", serverTime: Date.now() });
        send({ type: "queue", items: [] });
        // Stand-alone on the first link; off from the second, so the headset makes no more once it is back.
        send(
          connections === 1
            ? { type: "standalone", standaloneId: "sa-home", config }
            : { type: "standalone", standaloneId: null, config: null },
        );
      } else if (m.type === "standaloneResult") {
        uploads.set(m.resultId, (uploads.get(m.resultId) ?? 0) + 1);
        send({ type: "resultAccepted", resultId: m.resultId });
      }
    });
  });
  await new Promise((r) => wss.once("listening", r));
  closers.push(() => {
    for (const c of wss.clients) c.terminate();
    return new Promise<void>((r) => wss.close(() => r()));
  });
  return { port: (wss.address() as { port: number }).port, uploads, connections: () => connections };
};

describe("a headset behind a half-open home link", () => {
  it("notices it, reconnects and uploads the result it made meanwhile exactly once", async () => {
    const server = await deviceServer();
    const proxy: FaultProxy = await startFaultProxy({ target: `127.0.0.1:${server.port}`, seed: "half-open" });
    closers.push(() => proxy.close());
    const events: string[] = [];
    const headset = new VirtualHeadset({
      onError: rethrow,
      deviceSn: "VR-HOME",
      credential: "isd1.home",
      clock: systemClock,
      connector: wsConnector(proxy.urlFor("home-1"), { pingMs: 200, deadAfterMs: 2_500 }),
      speed: 1000,
      seed: 7,
      reconnectMs: 200,
      battery: { vr: 100, clicker: 100, vrCharging: true },
    });
    closers.push(() => headset.stop());
    headset.events.on("connection", (up) => events.push(up ? "connected" : "lost"));
    headset.events.on("upload", () => events.push("result made"));
    // Half-open as soon as the stand-alone setting is in: tests then run and end on a dead link.
    headset.events.on("received", (m) => {
      if (m.type === "standalone" && !events.includes("half-open")) {
        proxy.home("home-1").halfOpen();
        events.push("half-open");
      }
    });
    headset.start();
    const settled = await until(() => events.includes("lost") && headset.connected && headset.pendingResults === 0, 15_000);
    expect(settled).toBe(true);
    await sleep(300);
    // Results were made while the link was half-open, and after the watchdog dropped it each reached the server once.
    const made = events.slice(events.indexOf("half-open"), events.indexOf("lost")).filter((e) => e === "result made");
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(events.slice(0, 2)).toEqual(["connected", "half-open"]);
    const resultIds = headset.produced.map((m) => (m.type === "standaloneResult" ? m.resultId : ""));
    expect(headset.pendingResults).toBe(0);
    expect([...server.uploads].sort()).toEqual(resultIds.map((id) => [id, 1]).sort());
    expect(server.connections()).toBe(2);
    expect(proxy.counters.connectionsHalfOpen).toBe(1);
  });

  it("a cut that blackholes its home: attempts unanswered give up, and once the cut ends the results made meanwhile arrive once", async () => {
    const server = await deviceServer();
    const proxy: FaultProxy = await startFaultProxy({ target: `127.0.0.1:${server.port}`, seed: "blackhole" });
    closers.push(() => proxy.close());
    const events: string[] = [];
    const headset = new VirtualHeadset({
      onError: rethrow,
      deviceSn: "VR-HOME-2",
      credential: "isd1.home2",
      clock: systemClock,
      connector: wsConnector(proxy.urlFor("home-2"), { handshakeMs: 400 }),
      speed: 1000,
      seed: 8,
      reconnectMs: 200,
      battery: { vr: 100, clicker: 100, vrCharging: true },
    });
    closers.push(() => headset.stop());
    headset.events.on("connection", (up) => events.push(up ? "connected" : "lost"));
    headset.events.on("upload", () => events.push("result made"));
    headset.events.on("received", (m) => {
      if (m.type === "standalone" && !events.includes("cut")) {
        proxy.home("home-2").cut(2_500, "blackhole");
        events.push("cut");
      }
    });
    headset.start();
    const settled = await until(() => events.filter((e) => e === "connected").length === 2 && headset.pendingResults === 0, 15_000);
    expect(settled).toBe(true);
    await sleep(300);
    const offline = events.slice(events.indexOf("lost"), events.lastIndexOf("connected")).filter((e) => e === "result made");
    expect(offline.length).toBeGreaterThanOrEqual(1);
    expect(proxy.counters.blackholed).toBeGreaterThanOrEqual(2);
    // The blackholed attempts never reached the server: it saw the first link and the one after the cut.
    expect(server.connections()).toBe(2);
    const resultIds = headset.produced.map((m) => (m.type === "standaloneResult" ? m.resultId : ""));
    expect([...server.uploads].sort()).toEqual(resultIds.map((id) => [id, 1]).sort());
  });
});
