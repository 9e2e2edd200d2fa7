import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { natsTransport } from "../../../simulator/server/bus/nats-transport.ts";
import { ConfigError, readConfig } from "../../../simulator/server/config.ts";
import { startNats, type LocalNats } from "../../../scripts/cluster/nats.ts";
import { freePort } from "../../../scripts/cluster/processes.ts";

// Issue 32 §2: "NATS (Debian's nats-server), chosen by NATS_URL, with subjects per organisation and device. ... On
// both, order per device holds, and so does today's fault behaviour: a process that loses the bus stops being ready;
// a payload that fails to decode is logged and skipped." The transport against a real nats-server of its own.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: string, test: () => boolean, timeoutMs = 5_000) => {
  for (const end = Date.now() + timeoutMs; !test(); await sleep(10))
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
};

/** A transport and what it heard, per subject. */
const member = async (url: string, id: string) => {
  const transport = await natsTransport(url, id);
  const heard: Array<{ subject: string; body: unknown }> = [];
  transport.onReceive((subject, body) => heard.push({ subject, body }));
  return { transport, heard, on: (subject: string) => heard.filter((h) => h.subject === subject).map((h) => h.body) };
};

describe("the NATS transport", () => {
  let nats: LocalNats;
  let a: Awaited<ReturnType<typeof member>>;
  let b: Awaited<ReturnType<typeof member>>;
  let plain: NatsConnection;
  beforeAll(async () => {
    nats = await startNats();
    a = await member(nats.url, "process-a");
    b = await member(nats.url, "process-b");
    plain = await connect({ servers: nats.url });
  }, 20_000);
  afterAll(async () => {
    await plain?.close();
    await a?.transport.close();
    await b?.transport.close();
    await nats?.stop();
  });

  it("a burst of 1,000 messages on a device's subject arrives whole and in publish order, counted on both sides", async () => {
    await b.transport.listen("device.VR-1");
    const sentBefore = a.transport.traffic.sent;
    for (let n = 0; n < 1_000; n++) a.transport.send("device.VR-1", JSON.stringify({ n, pad: "x".repeat(n % 300) }));
    await until("all 1,000 heard", () => b.on("device.VR-1").length === 1_000);
    expect(b.on("device.VR-1").map((m) => (m as { n: number }).n)).toEqual(Array.from({ length: 1_000 }, (_, n) => n));
    expect(a.transport.traffic.sent - sentBefore).toBe(1_000);
    expect(a.transport.traffic.sentBytes).toBeGreaterThan(1_000 * 150);
    expect(b.transport.traffic.received).toBeGreaterThanOrEqual(1_000);
  });

  it("what one turn of the event loop sends leaves as one NATS message per subject, in publish order", async () => {
    const outside: string[] = [];
    const sub = plain.subscribe("isopter.org.packed.>", { callback: (_e, m) => outside.push(m.subject) });
    await plain.flush();
    await b.transport.listen("org.packed.1");
    await b.transport.listen("org.packed.2");
    for (let n = 0; n < 100; n++) a.transport.send(`org.packed.${(n % 2) + 1}`, JSON.stringify({ n }));
    await until("all 100 heard", () => b.on("org.packed.1").length + b.on("org.packed.2").length === 100);
    await until("the plain client heard them", () => outside.length === 2);
    await sleep(100);
    expect(outside.sort()).toEqual(["isopter.org.packed.1", "isopter.org.packed.2"]);
    const evens = Array.from({ length: 50 }, (_, k) => ({ n: 2 * k }));
    expect(b.on("org.packed.1")).toEqual(evens);
    expect(b.on("org.packed.2")).toEqual(evens.map(({ n }) => ({ n: n + 1 })));
    sub.unsubscribe();
  });

  it("the NATS subject is isopter.<subject>, and a process never hears its own messages", async () => {
    const outside: string[] = [];
    const sub = plain.subscribe("isopter.org.>", { callback: (_e, m) => outside.push(m.subject) });
    await plain.flush();
    await a.transport.listen("org.o1");
    await b.transport.listen("org.o1");
    a.transport.send("org.o1", '{"from":"a"}');
    b.transport.send("org.o1", '{"from":"b"}');
    await until("each heard the other", () => a.on("org.o1").length === 1 && b.on("org.o1").length === 1);
    await until("the plain client heard both", () => outside.length === 2);
    await sleep(100);
    expect([a.on("org.o1"), b.on("org.o1"), outside]).toEqual([[{ from: "b" }], [{ from: "a" }], ["isopter.org.o1", "isopter.org.o1"]]);
    // An envelope that names this process (a second connection of it, say) is its own too: not handed back.
    plain.publish("isopter.org.o1", new TextEncoder().encode(JSON.stringify({ from: "process-a", seq: 1, messages: [{ own: true }] })));
    await until("b heard it", () => b.on("org.o1").length === 2);
    await sleep(100);
    expect(a.on("org.o1")).toEqual([{ from: "b" }]);
    sub.unsubscribe();
  });

  it("unlisten stops delivery; listening again resumes it", async () => {
    await b.transport.listen("org.o2");
    await b.transport.listen("org.marker");
    a.transport.send("org.o2", '{"n":1}');
    await until("first heard", () => b.on("org.o2").length === 1);
    await b.transport.unlisten("org.o2");
    a.transport.send("org.o2", '{"n":2}');
    a.transport.send("org.marker", '{"after":2}');
    await until("the marker heard", () => b.on("org.marker").length === 1);
    expect(b.on("org.o2")).toEqual([{ n: 1 }]);
    await b.transport.listen("org.o2");
    a.transport.send("org.o2", '{"n":3}');
    await until("third heard", () => b.on("org.o2").length === 2);
    expect(b.on("org.o2")).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("a payload that is not JSON or lacks the envelope is logged and skipped; later messages still arrive", async () => {
    await b.transport.listen("device.VR-2");
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const skippedBefore = b.transport.traffic.skipped;
    try {
      const text = new TextEncoder();
      plain.publish("isopter.device.VR-2", text.encode("not json at all"));
      plain.publish("isopter.device.VR-2", text.encode(JSON.stringify({ type: "command", deviceSn: "VR-2" })));
      plain.publish("isopter.device.VR-2", text.encode(JSON.stringify({ from: "elsewhere", seq: 1 })));
      a.transport.send("device.VR-2", '{"after":"garbage"}');
      await until("the message after the garbage", () => b.on("device.VR-2").length === 1);
    } finally {
      spy.mockRestore();
    }
    expect(b.on("device.VR-2")).toEqual([{ after: "garbage" }]);
    expect(b.transport.traffic.skipped - skippedBefore).toBe(3);
    const skipped = lines.filter((l) => l.includes("bus_message_skipped"));
    expect(skipped).toHaveLength(3);
    expect(skipped[0]).toContain("not json at all");
  });

  it("a 20 kB message arrives whole", async () => {
    await b.transport.listen("org.big");
    const address = "y".repeat(20_000);
    a.transport.send("org.big", JSON.stringify({ address }));
    await until("heard", () => b.on("org.big").length === 1);
    expect(b.on("org.big")).toEqual([{ address }]);
  });

  it("the broker killed: not ready, told so; back on the same port: ready, and the subscriptions hear again", async () => {
    await b.transport.listen("device.VR-3");
    const told: boolean[] = [];
    b.transport.onReady((ready) => told.push(ready));
    expect([a.transport.ready, b.transport.ready]).toEqual([true, true]);
    nats.kill();
    await until("both not ready", () => !a.transport.ready && !b.transport.ready);
    expect(told).toEqual([false]);
    await nats.restart();
    await until("both ready again", () => a.transport.ready && b.transport.ready, 10_000);
    expect(told).toEqual([false, true]);
    a.transport.send("device.VR-3", '{"after":"restart"}');
    await until("heard after the restart", () => b.on("device.VR-3").length === 1);
    expect(b.on("device.VR-3")).toEqual([{ after: "restart" }]);
  }, 20_000);

  it("close sends what was published before it", async () => {
    const c = await member(nats.url, "process-c");
    await b.transport.listen("org.last");
    for (let n = 0; n < 50; n++) c.transport.send("org.last", JSON.stringify({ n }));
    await c.transport.close();
    await until("all 50 heard", () => b.on("org.last").length === 50);
    expect(b.on("org.last")).toEqual(Array.from({ length: 50 }, (_, n) => ({ n })));
  });
});

describe("NATS_URL", () => {
  it("a start on a NATS_URL where nothing answers fails at once with one error naming NATS_URL", async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    await expect(natsTransport(url, "p")).rejects.toThrow(/^cannot use NATS_URL nats:\/\/127\.0\.0\.1:\d+: no NATS server answers/);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it("is read from the environment: a nats:// URL beside DATABASE_URL, or a clear error", () => {
    const db = "postgres://x@127.0.0.1/db";
    expect(readConfig({ DATABASE_URL: db, NATS_URL: " nats://127.0.0.1:4222 " }).natsUrl).toBe("nats://127.0.0.1:4222");
    expect(readConfig({ DATABASE_URL: db }).natsUrl).toBeUndefined();
    for (const bad of ["http://127.0.0.1:4222", "127.0.0.1:4222", "nats://"])
      expect(() => readConfig({ DATABASE_URL: db, NATS_URL: bad })).toThrow(/^NATS_URL must be a NATS server's address/);
    expect(() => readConfig({ NATS_URL: "nats://127.0.0.1:4222" })).toThrow(ConfigError);
    expect(() => readConfig({ NATS_URL: "nats://127.0.0.1:4222" })).toThrow(
      /NATS_URL needs DATABASE_URL: the bus joins processes sharing one PostgreSQL/,
    );
  });
});
