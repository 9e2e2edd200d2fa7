import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { LiveEvent, LiveMessage } from "../../../core/model/live.ts";
import { liveMessage } from "../../../simulator/server/bus/messages.ts";
import { orgSubject } from "../../../simulator/server/bus/subjects.ts";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { liveSocket, login, ok } from "../harness.ts";
import { isEvent, onPostgres, patientNamed, startProcesses, type Processes } from "./harness.ts";

// Issue 32 §2, the cases of NATS's wire that live.test.ts checks on PostgreSQL's: two processes on one database
// talking over a nats-server of their own. "On both, order per device holds, and so does today's fault behaviour: ...
// a payload that fails to decode is logged and skipped." NATS takes messages up to a megabyte, so a big one is sent
// whole, with no table in between.

onPostgres("processes: live events over NATS", () => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;
  let org: string;
  let plain: NatsConnection;
  const text = new TextEncoder();
  beforeAll(async () => {
    p = await startProcesses(2, { settings: { deviceSilenceMs: 60_000 } }, "nats");
    [a, b] = p.servers as [RunningServer, RunningServer];
    token = await login(b.url, "user");
    org = (await ok(b.url, "organisation.current", {}, token)).id;
    plain = await connect({ servers: p.nats!.url });
  }, 60_000);
  afterAll(async () => {
    await plain?.close();
    await p?.close();
  });

  it("a message of 20 kB reaches the other process whole, and the database holds none of it", async () => {
    const onB = await liveSocket(b.url, token);
    const before = (await a.db.query<{ n: number }>("select count(*)::int as n from bus_events"))[0]!.n;
    const address = "x".repeat(20_000);
    a.ctx.live.publish(org, { type: "patient", operation: "update", data: { ...patientNamed("big-nats"), address } });
    const got = await onB.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "big-nats"));
    expect(((got as LiveEvent).data as { address: string }).address).toBe(address);
    expect((await a.db.query<{ n: number }>("select count(*)::int as n from bus_events"))[0]!.n).toBe(before);
    onB.close();
  });

  it("a burst of 300 messages, one of 20 kB among them, reaches the other process whole and in order", async () => {
    const onB = await liveSocket(b.url, token);
    const ids = Array.from({ length: 300 }, (_, i) => `nats-burst-${i}`);
    for (const [i, id] of ids.entries()) {
      const address = i === 150 ? "y".repeat(20_000) : "x".repeat(1_000);
      a.ctx.live.publish(org, { type: "patient", operation: "update", data: { ...patientNamed(id), address } });
    }
    const last = (x: LiveMessage) => isEvent("patient", "update", (e) => (e.data as { id: string }).id === "nats-burst-299")(x);
    await onB.next(last, 10_000);
    const heard = onB.messages.flatMap((m) =>
      "operation" in m && m.type === "patient" && (m.data as { id: string }).id.startsWith("nats-burst-")
        ? [(m.data as { id: string }).id]
        : [],
    );
    expect(heard).toEqual(ids);
    onB.close();
  });

  it("a payload on the organisation's subject that does not decode is logged and skipped; the processes go on", async () => {
    const onA = await liveSocket(a.url, token);
    const onB = await liveSocket(b.url, token);
    const subject = `isopter.${orgSubject(org)}`;
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const envelope = (seq: number, message: unknown) => text.encode(JSON.stringify({ from: "elsewhere", seq, messages: [message] }));
    try {
      plain.publish(subject, text.encode("not json at all"));
      plain.publish(subject, text.encode(JSON.stringify({ type: "live", organisationId: org })));
      plain.publish(subject, envelope(1, { type: "live", organisationId: 7 }));
      // An event whose text is not of the type and operation its envelope names: no browser hears it.
      const malformed = liveMessage(org, { type: "patient", operation: "update", data: patientNamed("malformed") } as LiveEvent);
      plain.publish(subject, envelope(2, { ...malformed, eventType: "device" }));
      plain.publish(
        subject,
        envelope(3, liveMessage(org, { type: "patient", operation: "update", data: patientNamed("after-garbage") } as LiveEvent)),
      );
      for (const socket of [onA, onB])
        await socket.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "after-garbage"));
    } finally {
      spy.mockRestore();
    }
    for (const socket of [onA, onB])
      expect(socket.messages.filter((m) => "operation" in m && (m.data as { id?: string }).id === "malformed")).toEqual([]);
    const skipped = lines.filter((l) => l.includes("bus_message_skipped"));
    // Each process skipped each of the four: not JSON, no envelope, organisationId not a string, a text not of its type.
    for (const reason of ["Not JSON", "from: Missing key", "organisationId: Expected string", "text: Expected the text of a device update"])
      expect(skipped.filter((l) => l.includes(reason)).length, reason).toBe(2);
    expect(skipped).toHaveLength(8);
    for (const s of [a, b]) expect(s.ctx.bus.figures()).toMatchObject({ kind: "nats", skipped: 4 });
    for (const s of [a, b]) expect((await fetch(`${s.url}/api/ready`)).status).toBe(200);
    onA.close();
    onB.close();
  });
});
