import { createServer, connect, type Server, type Socket } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../simulator/server/server.ts";
import { liveSocket, login, ok } from "../harness.ts";
import { isEvent, onBuses, patientNamed, startProcesses, until, type Processes } from "./harness.ts";

// Issue 17, faults: a process that loses its bus connection reports readiness false and accepts no new sockets
// (its browsers are closed, 1013, to reconnect elsewhere or later) until the connection is back; then it listens
// again and hears the other processes. Process A reaches the bus (PostgreSQL, or the nats-server on the NATS bus:
// issue 32 §2, "On both ... a process that loses the bus stops being ready") through a TCP relay this test cuts; B
// directly.

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
const relay = async (target: URL) => {
  let open = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => (sockets.delete(s), client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

const upgrade = (url: string) =>
  new Promise<number>((resolve) => {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/ws`);
    socket.on("open", () => (socket.close(), resolve(101)));
    socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    socket.on("error", () => resolve(0));
  });

onBuses("processes: a process that loses its bus connection", (bus) => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  let cable: Awaited<ReturnType<typeof relay>>;
  beforeAll(async () => {
    p = await startProcesses(1, {}, bus);
    b = p.servers[0]!;
    const busUrl = p.nats?.url ?? p.url;
    cable = await relay(new URL(busUrl));
    const relayed = new URL(busUrl);
    relayed.host = `127.0.0.1:${cable.port}`;
    const cut = relayed.toString();
    a = await startServer({
      storage: { kind: "postgres", url: bus === "postgres" ? cut : p.url },
      natsUrl: bus === "nats" ? cut : undefined,
      port: 0,
      webRoot: "/nonexistent-web-root",
    });
  }, 60_000);
  afterAll(async () => {
    cable?.restore();
    await a?.close();
    await cable?.close();
    await p?.close();
  });

  it("readiness false and no new sockets while it is away; back, it hears the others again", async () => {
    const token = await login(b.url, "manager");
    const before = await liveSocket(a.url, token);
    expect((await fetch(`${a.url}/api/ready`)).status).toBe(200);

    cable.cut();
    expect(await before.closed).toBe(1013);
    const ready = await fetch(`${a.url}/api/ready`);
    expect([ready.status, ready.headers.get("retry-after") !== null]).toEqual([503, true]);
    expect(await upgrade(a.url)).toBe(503);
    // The other process goes on.
    expect((await fetch(`${b.url}/api/ready`)).status).toBe(200);

    cable.restore();
    await until("ready again", async () => (await fetch(`${a.url}/api/ready`)).status === 200, 15_000);
    const after = await liveSocket(a.url, token);
    const org = (await ok(b.url, "organisation.current", {}, token)).id;
    b.ctx.live.publish(org, { type: "patient", operation: "update", data: patientNamed("after-outage") });
    await after.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "after-outage"));
    after.close();
  }, 60_000);
});
