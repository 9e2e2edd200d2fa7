import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { decodeLiveMessage, type LiveEvent } from "../../../core/model/live.ts";
import { parseJson } from "../../../core/model/decode.ts";
import { batteryHeard, liveThroughBus } from "../../../simulator/server/bus/live.ts";
import { decodeBusMessage, liveEventOf, liveMessage } from "../../../simulator/server/bus/messages.ts";
import { routedBus } from "../../../simulator/server/bus/routed-bus.ts";
import { orgSubject } from "../../../simulator/server/bus/subjects.ts";
import { liveHub } from "../../../simulator/server/live/hub.ts";
import { memoryNetwork, type MemoryNetwork } from "../../support/memory-transport.ts";

// Issue 32: a live event crosses the bus as its JSON text, made once by the sender; the receiver decodes the envelope
// (organisation, event type and operation, and that the text is of them) and hands the text to the organisation's
// browsers as it came. "A payload that fails to decode is logged and skipped", and tenancy holds: an event reaches only
// sockets of the organisation its validated envelope names, heard on that organisation's subject.

const progress = (nTested: number): LiveEvent => ({
  type: "measurement",
  operation: "measurement_progress",
  data: {
    deviceSn: "SN-1",
    perimetryId: "m-1",
    appointmentId: null,
    nTested,
    nLocations: 54,
    gazeTracking: true,
    thresholds: Array.from({ length: nTested }, (_, index) => ({ index, dBValue: 28 + (index % 5), answerTime: 400 })),
    lastUpdatedIndex: nTested - 1,
  },
  deviceSn: "SN-1",
});

/** A browser socket that keeps what it is sent. */
const browser = () => {
  const texts: string[] = [];
  const socket = {
    readyState: 1,
    OPEN: 1,
    CLOSING: 2,
    CLOSED: 3,
    send: (t: Buffer) => void texts.push(t.toString()),
  } as unknown as WebSocket;
  return { socket, texts };
};

const process_ = async (network: MemoryNetwork, name: string) => {
  const bus = await routedBus(network.transport(name), name, { ackMs: 100 });
  const live = liveThroughBus(liveHub(), bus);
  const join = async (organisationId: string) => {
    const b = browser();
    await live.add({ socket: b.socket, organisationId, userId: `u-${organisationId}`, sessionId: undefined });
    return b;
  };
  return { bus, live, join };
};

describe("a live event as it crosses", () => {
  it("property: its text begins with its type and operation, decodes to the event, and its envelope decodes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 54 }), fc.string(), fc.boolean(), (n, org, reordered) => {
        const made = progress(n);
        // Built with data before type: the text still begins with type and operation.
        const event = (reordered ? Object.assign({ data: made.data }, made) : made) as LiveEvent;
        const m = liveMessage(org, event);
        expect(m.text.startsWith('{"type":"measurement","operation":"measurement_progress",')).toBe(true);
        expect(Result.getOrThrow(liveEventOf(m))).toEqual(made);
        expect(Result.getOrThrow(decodeBusMessage(JSON.parse(JSON.stringify(m))))).toEqual(m);
      }),
    );
  });

  it("reaches the organisation's browsers on both processes as one text, which the browser's own decoding takes", async () => {
    const network = memoryNetwork();
    const a = await process_(network, "a");
    const b = await process_(network, "b");
    await network.settle();
    const onA = await a.join("org-1");
    const onB = await b.join("org-1");
    const other = await b.join("org-2");
    a.live.publish("org-1", progress(3));
    await network.settle();
    expect(onB.texts).toEqual(onA.texts);
    expect(onA.texts).toHaveLength(1);
    expect(Result.getOrThrow(Result.flatMap(parseJson(onB.texts[0]!), decodeLiveMessage))).toEqual(progress(3));
    expect(other.texts).toEqual([]);
    expect(b.bus.figures().skipped).toBe(0);
  });

  it("a malformed crossing event is logged and skipped: it reaches no browser, and the good one after it does", async () => {
    const network = memoryNetwork();
    const b = await process_(network, "b");
    const rogue = network.transport("rogue");
    await network.settle();
    const mine = await b.join("org-1");
    const others = await b.join("org-2");
    const subject = orgSubject("org-1");
    const good = liveMessage("org-1", progress(2));
    const malformed: unknown[] = [
      { type: "live", organisationId: "org-1" },
      // The event as an object (not its text).
      { type: "live", organisationId: "org-1", eventType: "measurement", operation: "measurement_progress", event: progress(2) },
      // No such event.
      { ...good, eventType: "patient" },
      // A text that is not of the type and operation the envelope names.
      { ...good, text: liveMessage("org-1", { type: "patient", operation: "delete", data: { id: "p" } }).text },
      { ...good, text: 42 },
      // Another organisation's event heard on org-1's subject: not for org-2's browsers here.
      { ...good, organisationId: "org-2" },
    ];
    for (const m of malformed) rogue.send(subject, JSON.stringify(m));
    rogue.send(subject, JSON.stringify(good));
    await network.settle();
    expect(mine.texts).toEqual([good.text]);
    expect(others.texts).toEqual([]);
    expect(b.bus.figures().skipped).toBe(malformed.length);
  });
});

describe("a battery heard from another process", () => {
  const update = (data: Record<string, unknown>) =>
    liveMessage("org-1", { type: "device", operation: "update", data: { deviceSn: "SN-1", ...data }, deviceSn: "SN-1" } as LiveEvent);
  const battery = { vr: { level: 80, charging: false }, clicker: { level: 70, charging: true } };

  it("is read from a device update that carries one, decoded from its text", () => {
    expect(batteryHeard(update({ connection: "CONNECTED", battery, lastSeen: "2026-11-28T10:00:00.000Z" }))).toEqual({
      deviceSn: "SN-1",
      battery,
      lastSeen: "2026-11-28T10:00:00.000Z",
    });
  });

  it("is none for an update without one, another event, or a text that does not decode", () => {
    expect(batteryHeard(update({ connection: "CONNECTED" }))).toBeUndefined();
    expect(batteryHeard(liveMessage("org-1", progress(1)))).toBeUndefined();
    const bad = update({ battery, lastSeen: "2026-11-28T10:00:00.000Z" });
    expect(batteryHeard({ ...bad, text: bad.text.replace('"level":80', '"level":"full"') })).toBeUndefined();
  });
});
