import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Bus } from "../../../simulator/server/bus/bus.ts";
import { liveMessage, type BusMessage } from "../../../simulator/server/bus/messages.ts";
import { routedBus } from "../../../simulator/server/bus/routed-bus.ts";
import { deviceSubject, orgSubject } from "../../../simulator/server/bus/subjects.ts";
import { memoryNetwork } from "../../support/memory-transport.ts";

// Issue 32 §1, routing by interest: "A process takes an organisation's live events only while a browser of that
// organisation is connected to it. It takes a device's commands only while that headset is connected to it. ...
// An event nobody listens to costs nothing outside its own process."

const event = (organisationId: string, n: number): BusMessage =>
  liveMessage(organisationId, { type: "patient", operation: "delete", data: { id: `p-${n}` } });

const join = async (network: ReturnType<typeof memoryNetwork>, name: string, ackMs = 200) => {
  const bus = await routedBus(network.transport(name), name, { ackMs });
  const heard: BusMessage[] = [];
  bus.subscribe((m, fromHere) => {
    if (!fromHere) heard.push(m);
  });
  await network.settle();
  return { bus, heard };
};
const sent = (bus: Bus) => bus.figures().sent;

describe("routing by interest", () => {
  it("an event of an organisation nobody else holds is delivered here and sends nothing", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    let here = 0;
    a.bus.subscribe((m, fromHere) => void (fromHere && m.type === "live" && here++));
    const before = sent(a.bus);
    for (let i = 0; i < 100; i++) a.bus.publish(event("org-1", i));
    await network.settle();
    expect(here).toBe(100);
    expect(sent(a.bus) - before).toBe(0);
    expect(b.heard).toEqual([]);
  });

  it("once interest resolves, the other processes send the subject's messages: none is skipped for want of news", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    const release = await b.bus.interest(orgSubject("org-1"));
    // No settle in between: resolving means a has heard b's interest.
    a.bus.publish(event("org-1", 1));
    a.bus.publish(event("org-2", 2));
    await network.settle();
    expect(b.heard).toEqual([event("org-1", 1)]);
    release();
    await network.settle();
    a.bus.publish(event("org-1", 3));
    await network.settle();
    expect(b.heard).toHaveLength(1);
  });

  it("a process that joins later learns what the others hold (hello), and they learn what it holds", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    await a.bus.interest(deviceSubject("VR-0001"));
    const c = await join(network, "c");
    const command: BusMessage = { type: "push", deviceSn: "VR-0001", what: "queue" };
    c.bus.publish(command);
    await network.settle();
    expect(a.heard).toEqual([command]);
    await c.bus.interest(orgSubject("org-9"));
    a.bus.publish(event("org-9", 1));
    await network.settle();
    expect(c.heard).toEqual([event("org-9", 1)]);
  });

  it("holds are counted: the subject is let go when the last browser of the organisation leaves", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    const first = await b.bus.interest(orgSubject("org-1"));
    const second = await b.bus.interest(orgSubject("org-1"));
    first();
    first(); // a release called twice counts once
    await network.settle();
    a.bus.publish(event("org-1", 1));
    await network.settle();
    expect(b.heard).toHaveLength(1);
    second();
    await network.settle();
    a.bus.publish(event("org-1", 2));
    await network.settle();
    expect(b.heard).toHaveLength(1);
    expect(b.bus.figures().subjects).toBe(0);
  });

  it("ended sessions go to every process (each caches sessions), whatever it holds", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    const ended: BusMessage = { type: "sessions_ended", userId: "u-1", reason: "logout" };
    a.bus.publish(ended);
    await network.settle();
    expect(b.heard).toEqual([ended]);
  });

  it("a process that does not answer delays a new interest by the ack time only; one that left is not waited for", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a", 150);
    const b = await join(network, "b");
    const c = await join(network, "c");
    network.mute("c");
    let t = Date.now();
    await a.bus.interest(orgSubject("org-1"));
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    await b.bus.close();
    await network.settle();
    a.bus.keepPeers(["a"]); // c is not in the roster, but was heard within the last seconds: kept for now
    t = Date.now();
    await a.bus.interest(orgSubject("org-2"));
    expect(Date.now() - t).toBeGreaterThanOrEqual(140); // still waiting for c
    expect(a.bus.figures().peers).toBe(1); // b said it was leaving
    expect(c.heard).toEqual([]);
  });

  it("a control message that does not decode is counted and skipped; the bus goes on", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const rogue = network.transport("rogue");
    await rogue.listen("all");
    rogue.send("all", JSON.stringify({ type: "interest", from: 7 }));
    rogue.send("all", JSON.stringify({ type: "live", organisationId: 7 }));
    await network.settle();
    expect(a.bus.figures().skipped).toBe(2);
    const b = await join(network, "b");
    await b.bus.interest(orgSubject("org-1"));
    a.bus.publish(event("org-1", 1));
    await network.settle();
    expect(b.heard).toHaveLength(1);
  });

  it("property: a message reaches exactly the other processes holding its subject, and is sent only when one does", async () => {
    const subjects = ["org-1", "org-2", "org-3"];
    const step = fc.oneof(
      fc.record({ kind: fc.constant("hold" as const), p: fc.nat(2), s: fc.nat(2) }),
      fc.record({ kind: fc.constant("release" as const), p: fc.nat(2), s: fc.nat(2) }),
      fc.record({ kind: fc.constant("publish" as const), p: fc.nat(2), s: fc.nat(2) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const network = memoryNetwork();
        const procs = [await join(network, "p0"), await join(network, "p1"), await join(network, "p2")];
        const holds = procs.map(() => subjects.map(() => [] as Array<() => void>));
        const expected = procs.map(() => [] as BusMessage[]);
        let n = 0;
        for (const s of steps) {
          if (s.kind === "hold") holds[s.p]![s.s]!.push(await procs[s.p]!.bus.interest(orgSubject(subjects[s.s]!)));
          else if (s.kind === "release") holds[s.p]![s.s]!.pop()?.();
          else {
            const m = event(subjects[s.s]!, n++);
            const holders = procs.map((_, q) => q !== s.p && holds[q]![s.s]!.length > 0);
            holders.forEach((h, q) => h && expected[q]!.push(m));
            const before = sent(procs[s.p]!.bus);
            procs[s.p]!.bus.publish(m);
            await network.settle();
            // Alone in its window, a message is sent once on its subject, whoever holds it.
            expect(sent(procs[s.p]!.bus) - before).toBe(holders.some(Boolean) ? 1 : 0);
          }
          await network.settle();
        }
        procs.forEach((p, q) => expect(p.heard.filter((m) => m.type === "live")).toEqual(expected[q]));
      }),
      { numRuns: 40 },
    );
  });
});

describe("a process forgotten while stalled", () => {
  it("is sent nothing once the others forget it, and everything it holds again once it says it rejoined", async () => {
    const network = memoryNetwork();
    const a = await routedBus(network.transport("a"), "a", { ackMs: 100, forgetSilentMs: 0 });
    const b = await routedBus(network.transport("b"), "b", { ackMs: 100 });
    const heard: BusMessage[] = [];
    b.subscribe((m, fromHere) => void (!fromHere && heard.push(m)));
    await network.settle();
    await b.interest(orgSubject("org-1"));
    await new Promise((r) => setTimeout(r, 5));
    // b's lease ran out while it was stalled: a forgets it, and with it what it holds.
    a.keepPeers(["a"]);
    a.publish(event("org-1", 1));
    await network.settle();
    expect(heard).toEqual([]);
    b.rejoined();
    await network.settle();
    a.publish(event("org-1", 2));
    await network.settle();
    expect(heard).toEqual([event("org-1", 2)]);
  });
});
