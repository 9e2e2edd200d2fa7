import { Result, Schema } from "effect";
import { CommandKind, RefusalReason } from "../../../core/device/protocol.ts";
import { decode, parseJson, type DecodeError } from "../../../core/model/decode.ts";
import { LiveEventTypeSchema, LiveOperationSchema } from "../../../core/model/enums.ts";
import { decodeLiveEvent, liveEventSchema, type LiveEvent } from "../../../core/model/live.ts";

// What server processes on one database tell each other (bus.ts). Every message is decoded with these schemas when
// it arrives from another process: a payload that does not decode is logged and skipped (routed-bus.ts).
//
// A live event crosses as its JSON text (issue 32: a crossing cost about as much as the headset's own work, most of
// it in parsing, decoding and stringifying the event again on the receiving process). The sender makes the text once,
// for its own browsers and the bus alike (liveMessage); the receiver decodes what routing and tenancy need (the
// organisation, the event's type and operation, and that the text is of that type and operation) and hands the text
// to the organisation's browser sockets as it came. The browser decodes every event with the event's schema on
// receipt (adapters/socket/live-socket.ts); a process that reads an event's data decodes the text (liveEventOf).

/** How a live event's text begins: liveMessage writes its type and operation first. */
const textStart = (eventType: string, operation: string) =>
  `{"type":${JSON.stringify(eventType)},"operation":${JSON.stringify(operation)},`;

const LiveWireSchema = Schema.Struct({
  type: Schema.Literal("live"),
  organisationId: Schema.String,
  eventType: LiveEventTypeSchema,
  operation: LiveOperationSchema,
  /** The event's JSON text, type and operation first. */
  text: Schema.String,
}).check(
  Schema.makeFilter((m) =>
    liveEventSchema(m.eventType, m.operation) === undefined
      ? { path: ["operation"], issue: `No ${m.operation} event of type ${m.eventType}` }
      : m.text.startsWith(textStart(m.eventType, m.operation))
        ? undefined
        : { path: ["text"], issue: `Expected the text of a ${m.eventType} ${m.operation} event` },
  ),
);

const SessionEndSchema = Schema.Literals([
  "logout",
  "another_session_opened",
  "password_changed",
  "password_reset",
  "role_changed",
  "user_deleted",
]);

const BusWireSchema = Schema.Union([
  /** A live event for the organisation's browsers, on the processes that hold the organisation's subject. */
  LiveWireSchema,
  /** Sessions of a user ended: their live sockets are told why and closed, wherever they are. */
  Schema.Struct({
    type: Schema.Literal("sessions_ended"),
    userId: Schema.String,
    reason: SessionEndSchema,
    keep: Schema.optionalKey(Schema.String),
    only: Schema.optionalKey(Schema.String),
  }),
  /** A device command for process `to`, which the headset is connected to; process `from` waits for the ack. */
  Schema.Struct({
    type: Schema.Literal("command"),
    deviceSn: Schema.String,
    commandId: Schema.String,
    kind: CommandKind,
    from: Schema.String,
    to: Schema.String,
  }),
  /** The headset's answer to a command, for the process `to` that sent it. */
  Schema.Struct({
    type: Schema.Literal("ack"),
    deviceSn: Schema.String,
    commandId: Schema.String,
    to: Schema.String,
    ok: Schema.Boolean,
    error: Schema.optionalKey(Schema.String),
    notConnected: Schema.optionalKey(Schema.Boolean),
  }),
  /** The headset's queue or stand-alone setting changed: the process it is connected to sends it the new one. */
  Schema.Struct({ type: Schema.Literal("push"), deviceSn: Schema.String, what: Schema.Literals(["queue", "standalone"]) }),
  /** Revoked or enrolled again: the process the headset is connected to refuses it. */
  Schema.Struct({ type: Schema.Literal("refuse"), deviceSn: Schema.String, reason: RefusalReason, message: Schema.String }),
  /** The headset connected to process `by`: an older socket of the serial elsewhere is closed. */
  Schema.Struct({ type: Schema.Literal("attached"), deviceSn: Schema.String, by: Schema.String }),
  /** A simulator control call for process `to` (every process without `to`), made through process `from` with the
   * caller's claims; the input is decoded again with the call's spec where it runs (simulator-relay.ts). */
  Schema.Struct({
    type: Schema.Literal("simulator_call"),
    requestId: Schema.String,
    from: Schema.String,
    to: Schema.optionalKey(Schema.String),
    name: Schema.Literals(["simulator.headsets", "simulator.add", "simulator.remove", "simulator.settings", "simulator.fault"]),
    query: Schema.optionalKey(Schema.Unknown),
    body: Schema.optionalKey(Schema.Unknown),
    claims: Schema.Unknown,
  }),
  /** Process `by`'s answer: the call's data, its failure, that it runs no such headset (`skipped`) or no simulator
   * at all (`none`). */
  Schema.Struct({
    type: Schema.Literal("simulator_reply"),
    requestId: Schema.String,
    to: Schema.String,
    by: Schema.String,
    outcome: Schema.Literals(["ok", "failed", "skipped", "none"]),
    data: Schema.optionalKey(Schema.Unknown),
    failure: Schema.optionalKey(Schema.Struct({ type: Schema.String, message: Schema.String, field: Schema.optionalKey(Schema.String) })),
    headsets: Schema.Int,
  }),
]);
export type BusMessage = typeof BusWireSchema.Type;
export type BusMessageOf<T extends BusMessage["type"]> = Extract<BusMessage, { type: T }>;

/** A live event of an organisation, as the bus carries it: its text is made here, once. */
export const liveMessage = (organisationId: string, event: LiveEvent): BusMessageOf<"live"> => {
  const { type, operation, ...rest } = event;
  // Type and operation first, whatever order the event was built in: the receiver checks the text begins with them.
  return { type: "live", organisationId, eventType: type, operation, text: JSON.stringify({ type, operation, ...rest }) };
};

/** The event a live message carries, decoded with its schema (for a process that reads its data). */
export const liveEventOf = (message: BusMessageOf<"live">): Result.Result<LiveEvent, DecodeError> =>
  Result.flatMap(parseJson(message.text), decodeLiveEvent);

// Decoders made once, stopping at the first issue; a payload that fails is decoded again naming every issue (decode),
// for the log: bad payloads are rare, good ones many.
const decodeWire = Schema.decodeUnknownResult(BusWireSchema);

/** A message from another process, decoded; the error names the field ("text", "organisationId"). */
export const decodeBusMessage = (input: unknown): Result.Result<BusMessage, DecodeError> => {
  const wire = decodeWire(input);
  return Result.isSuccess(wire) ? Result.succeed(wire.success) : decode(BusWireSchema, input);
};

/** One NOTIFY payload: the sending process, its sequence number, and its messages in publish order, or the id of a
 * bus_events row holding one message too big for NOTIFY's 8000 bytes. */
export const EnvelopeSchema = Schema.Struct({
  from: Schema.String,
  seq: Schema.Int,
  messages: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  stored: Schema.optionalKey(Schema.Int),
});
export type Envelope = typeof EnvelopeSchema.Type;

const decodeEnvelope = Schema.decodeUnknownResult(EnvelopeSchema);

/** One payload of a transport (JSON text), decoded as an envelope. */
export const decodeEnvelopeJson = (payload: string): Result.Result<Envelope, DecodeError> =>
  Result.flatMap(parseJson(payload), (parsed) => {
    const envelope = decodeEnvelope(parsed);
    return Result.isSuccess(envelope) ? Result.succeed(envelope.success) : decode(EnvelopeSchema, parsed);
  });
