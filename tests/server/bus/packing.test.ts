import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { liveMessage, type BusMessage } from "../../../simulator/server/bus/messages.ts";
import { routedBus } from "../../../simulator/server/bus/routed-bus.ts";
import { orgSubject, processSubject } from "../../../simulator/server/bus/subjects.ts";
import type { BusTransport } from "../../../simulator/server/bus/transport.ts";
import { memoryNetwork, type MemoryNetwork } from "../../support/memory-transport.ts";

// Issue 32 §3: a crossing must cost far less than the headset's own work, and most of its cost was per message. The
// routed bus holds what is published for a few milliseconds: alone in its window a message goes on its subject (the
// broker routes it); with others, to each holder's process subject, one pack per holder. Either way only the processes
// holding the subject hear it, each message once, and an organisation's messages in the order they were published.

const event = (organisationId: string, n: number): BusMessage =>
  liveMessage(organisationId, { type: "patient", operation: "delete", data: { id: `p-${n}` } });

/** The subjects a transport was asked to send on, in order. */
const recording = (transport: BusTransport) => {
  const subjects: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (subject, json) => {
    subjects.push(subject);
    send(subject, json);
  };
  return { transport, subjects };
};

const join = async (network: MemoryNetwork, name: string) => {
  const rec = recording(network.transport(name));
  const bus = await routedBus(rec.transport, name, { ackMs: 200 });
  const heard: BusMessage[] = [];
  bus.subscribe((m, fromHere) => void (!fromHere && m.type === "live" && heard.push(m)));
  await network.settle();
  return { bus, heard, sentOn: rec.subjects };
};

describe("packing what crosses", () => {
  it("several messages in a window go to each holder's process subject, in publish order", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    const c = await join(network, "c");
    await b.bus.interest(orgSubject("org-1"));
    await c.bus.interest(orgSubject("org-2"));
    await network.settle();
    a.sentOn.length = 0;
    const sent = [event("org-1", 1), event("org-2", 2), event("org-1", 3), event("org-3", 4), event("org-1", 5)];
    for (const m of sent) a.bus.publish(m);
    await network.settle();
    expect(b.heard).toEqual([sent[0], sent[2], sent[4]]);
    expect(c.heard).toEqual([sent[1]]);
    // org-3 is held by nobody else: it never left a.
    expect(a.sentOn).toEqual([processSubject("b"), processSubject("c"), processSubject("b"), processSubject("b")]);
  });

  it("a message alone in its window goes on its own subject", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    await b.bus.interest(orgSubject("org-1"));
    await network.settle();
    a.sentOn.length = 0;
    a.bus.publish(event("org-1", 1));
    await network.settle();
    expect(a.sentOn).toEqual([orgSubject("org-1")]);
    expect(b.heard).toEqual([event("org-1", 1)]);
  });

  it("a pack for a subject this process no longer holds is dropped, not delivered and not counted as bad", async () => {
    const network = memoryNetwork();
    const b = await join(network, "b");
    const rogue = network.transport("rogue");
    rogue.send(processSubject("b"), JSON.stringify(event("org-9", 1)));
    await network.settle();
    expect(b.heard).toEqual([]);
    expect(b.bus.figures().skipped).toBe(0);
  });

  it("what waits in the window when the process closes is sent before it says it is leaving", async () => {
    const network = memoryNetwork();
    const a = await join(network, "a");
    const b = await join(network, "b");
    await b.bus.interest(orgSubject("org-1"));
    await network.settle();
    a.bus.publish(event("org-1", 1));
    a.bus.publish(event("org-1", 2));
    await a.bus.close();
    await network.settle();
    expect(b.heard).toEqual([event("org-1", 1), event("org-1", 2)]);
  });

  it("property: across windows packed or not, each holder hears each of its organisations' messages once, in order", async () => {
    const step = fc.record({ org: fc.nat(2), from: fc.nat(1), wait: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const network = memoryNetwork();
        const senders = [await join(network, "s0"), await join(network, "s1")];
        const holder = await join(network, "h");
        await holder.bus.interest(orgSubject("org-0"));
        await holder.bus.interest(orgSubject("org-1"));
        await network.settle();
        const expected = new Map<string, BusMessage[]>();
        let n = 0;
        for (const s of steps) {
          const m = event(`org-${s.org}`, n++);
          senders[s.from]!.bus.publish(m);
          // org-2 is held by nobody: it must never arrive.
          if (s.org < 2) expected.set(`${s.from}/${s.org}`, [...(expected.get(`${s.from}/${s.org}`) ?? []), m]);
          if (s.wait) await network.settle();
        }
        await network.settle();
        for (const [key, messages] of expected) {
          const [from, org] = key.split("/");
          const fromSender = holder.heard.filter(
            (m) => m.type === "live" && m.organisationId === `org-${org}` && steps[idOf(m)]!.from === Number(from),
          );
          expect(fromSender).toEqual(messages);
        }
        expect(holder.heard).toHaveLength([...expected.values()].reduce((t, ms) => t + ms.length, 0));
      }),
      { numRuns: 30 },
    );
  });
});

/** The publish index an event was made with (its patient id is p-<n>). */
const idOf = (m: BusMessage) => (m.type === "live" ? Number(/"p-(\d+)"/.exec(m.text)![1]) : -1);
