import { Result, Schema } from "effect";
import { CommandKind, RefusalReason } from "../../../core/device/protocol.ts";
import { decode, type DecodeError } from "../../../core/model/decode.ts";
import { decodeLiveEvent, type LiveEvent } from "../../../core/model/live.ts";

// What server processes on one database tell each other (bus.ts). Every message is decoded with these schemas when
// it arrives from another process: a payload that does not decode is logged and skipped (routed-bus.ts).

const SessionEndSchema = Schema.Literals([
  "logout",
  "another_session_opened",
  "password_changed",
  "password_reset",
  "role_changed",
  "user_deleted",
]);

const BusWireSchema = Schema.Union([
  /** A live event for the organisation's browsers, on every process (the event is decoded by its type and operation). */
  Schema.Struct({ type: Schema.Literal("live"), organisationId: Schema.String, event: Schema.Unknown }),
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
type BusWire = typeof BusWireSchema.Type;
export type BusMessage =
  | Exclude<BusWire, { type: "live" }>
  | { readonly type: "live"; readonly organisationId: string; readonly event: LiveEvent };

/** A message from another process, decoded; the error names the field ("event.data.status"). */
export const decodeBusMessage = (input: unknown): Result.Result<BusMessage, DecodeError> =>
  Result.flatMap(decode(BusWireSchema, input), (wire): Result.Result<BusMessage, DecodeError> => {
    if (wire.type !== "live") return Result.succeed(wire);
    return Result.match(decodeLiveEvent(wire.event), {
      onSuccess: (event) => Result.succeed({ type: "live" as const, organisationId: wire.organisationId, event }),
      onFailure: (e) => Result.fail({ ...e, field: `event.${e.field}`, message: `event.${e.message}` }),
    });
  });
export type BusMessageOf<T extends BusMessage["type"]> = Extract<BusMessage, { type: T }>;

/** One NOTIFY payload: the sending process, its sequence number, and its messages in publish order, or the id of a
 * bus_events row holding one message too big for NOTIFY's 8000 bytes. */
export const EnvelopeSchema = Schema.Struct({
  from: Schema.String,
  seq: Schema.Int,
  messages: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  stored: Schema.optionalKey(Schema.Int),
});
export type Envelope = typeof EnvelopeSchema.Type;
