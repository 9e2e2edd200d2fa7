// npm run bench:bus-crossing (issue 32): what one live event costs as it crosses between processes, sender and
// receiver apart, the way it crossed before (the event inside the message as an object: stringified for this process's
// sockets and again for the bus; parsed, decoded with its event schema and stringified again for the sockets on the
// receiving process) and now (simulator/server/bus/messages.ts: its JSON text made once, for the sockets here and the
// bus; the receiver decodes the envelope, organisation, type and operation, and hands the text on). Beside them: what
// a full decode of the text at the receiver would add, with a decoder made once (the browser decodes it anyway).
// Events: the 54 progress frames of a 24-2 test (cumulative thresholds, as bench/fleet.ts streams them) and a
// headset's liveness update. Prints microseconds per event, the median of REPEATS runs of EVENTS events, with the load
// average: the machine is shared. Environment: REPEATS (9), EVENTS (20000).
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { Result, Schema } from "effect";
import { decode } from "../core/model/decode.ts";
import { decodeLiveEvent, liveEventSchema, type LiveEvent } from "../core/model/live.ts";
import { decodeBusMessage, decodeEnvelopeJson, EnvelopeSchema, liveMessage } from "../simulator/server/bus/messages.ts";
import { loadAverage } from "./figures.ts";
import { cumulativeThresholds } from "./fleet.ts";

const repeats = Number(process.env.REPEATS ?? 9);
const events = Number(process.env.EVENTS ?? 20_000);
const ORG = randomUUID();
const FROM = randomUUID();

const progressFrames: LiveEvent[] = Array.from({ length: 54 }, (_, k) => {
  const thresholds = cumulativeThresholds(7, k + 1);
  return {
    type: "measurement",
    operation: "measurement_progress",
    data: {
      deviceSn: "VR-L-0001",
      perimetryId: `bench-VR-L-0001-${k}`,
      appointmentId: null,
      nTested: k + 1,
      nLocations: 54,
      gazeTracking: true,
      thresholds,
      lastUpdatedIndex: thresholds.at(-1)!.index,
    },
    deviceSn: "VR-L-0001",
  };
});
const liveness: LiveEvent[] = [
  {
    type: "device",
    operation: "update",
    data: { deviceSn: "VR-L-0001", connection: "CONNECTED", status: "standby" },
    deviceSn: "VR-L-0001",
  },
];

/** A transport's payload around one message, as NATS carries each (PostgreSQL packs several in one). */
const payload = (json: string) => `{"from":${JSON.stringify(FROM)},"seq":1,"messages":[${json}]}`;

// ---- before: the event inside the message as an object ---------------------------------------------------------------
/** The live member of the bus's message schema before (its other members are not live events). */
const OldLiveWire = Schema.Struct({ type: Schema.Literal("live"), organisationId: Schema.String, event: Schema.Unknown });
const sendBefore = (event: LiveEvent) => [JSON.stringify(event), JSON.stringify({ type: "live", organisationId: ORG, event })] as const;
const receiveBefore = (text: string) => {
  const envelope = decode(EnvelopeSchema, JSON.parse(text));
  const wire = decode(OldLiveWire, Result.getOrThrow(envelope).messages![0]);
  const event = Result.getOrThrow(decodeLiveEvent(Result.getOrThrow(wire).event));
  return JSON.stringify(event); // for the sockets
};

// ---- now: the event's text made once ---------------------------------------------------------------------------------
const sendNow = (event: LiveEvent) => {
  const m = liveMessage(ORG, event);
  return [m.text, JSON.stringify(m)] as const;
};
const receiveNow = (text: string) => {
  const m = Result.getOrThrow(decodeBusMessage(Result.getOrThrow(decodeEnvelopeJson(text)).messages![0]));
  return m.type === "live" ? m.text : "";
};
/** What a full decode of the text would add at the receiver, with each event's decoder made once (first issue only). */
const decoders = new Map<string, (input: unknown) => Result.Result<unknown, unknown>>();
const fullDecode = (text: string) => {
  const parsed = JSON.parse(text) as { type: string; operation: string };
  const key = `${parsed.type} ${parsed.operation}`;
  let decoder = decoders.get(key);
  if (!decoder) decoders.set(key, (decoder = Schema.decodeUnknownResult(liveEventSchema(parsed.type, parsed.operation)!)));
  return Result.getOrThrow(decoder(parsed));
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Microseconds per call of `f` over `inputs` in turn: the median of the runs. */
const perEvent = <T>(inputs: readonly T[], f: (x: T) => unknown) => {
  for (let i = 0; i < 2_000; i++) f(inputs[i % inputs.length]!);
  const runs: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    for (let i = 0; i < events; i++) f(inputs[i % inputs.length]!);
    runs.push(((performance.now() - t) * 1000) / events);
  }
  return median(runs);
};

const bytes = (texts: readonly string[]) => Math.round(texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / texts.length);

const measure = (name: string, list: readonly LiveEvent[]) => {
  const before = list.map((e) => payload(sendBefore(e)[1]));
  const now = list.map((e) => payload(sendNow(e)[1]));
  // Both ways hand the browsers the same event (its keys in the order it was made now, in its schema's before).
  list.forEach((_, i) => {
    if (!isDeepStrictEqual(JSON.parse(receiveNow(now[i]!)), JSON.parse(receiveBefore(before[i]!))))
      throw new Error(`${name}: the two ways disagree`);
  });
  const texts = now.map(receiveNow);
  const f = {
    sendBefore: perEvent(list, sendBefore),
    sendNow: perEvent(list, sendNow),
    receiveBefore: perEvent(before, receiveBefore),
    receiveNow: perEvent(now, receiveNow),
    full: perEvent(texts, fullDecode),
  };
  const us = (x: number) => x.toFixed(2).padStart(6);
  console.log(
    `${name.padEnd(16)} | before ${us(f.sendBefore)} + ${us(f.receiveBefore)} = ${us(f.sendBefore + f.receiveBefore)} us (${bytes(before)} B)` +
      ` | now ${us(f.sendNow)} + ${us(f.receiveNow)} = ${us(f.sendNow + f.receiveNow)} us (${bytes(now)} B)` +
      ` | a full decode of the text would add ${us(f.full)} us | load average ${loadAverage()}`,
  );
};

console.log(
  `bench:bus-crossing: microseconds per event, sender + receiver, median of ${repeats} runs of ${events} events (load average ${loadAverage()})`,
);
measure("progress frame", progressFrames);
measure("liveness update", liveness);
