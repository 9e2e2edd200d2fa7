import { Result, Schema } from "effect";
import { decode, type DecodeError } from "./decode.ts";
import { LiveEventTypeSchema, LiveOperationSchema } from "./enums.ts";
import { liveEventData, type LiveEventData } from "./live-data.ts";

// Live socket messages (scheduling §4 "Live events", §7 "Live socket"; accounts §4, §7 "Websocket").
// A live event carries {type, operation, data, accessToken?, deviceSn?}. Besides events, the socket carries control
// messages; the seeds name them (logged-in with token and message, ping, token-expired, token-verification-error,
// another session opened) but not their wire form, so the `type` strings below are our design.
// Each (type, operation) of core/model/live-data.ts is one event schema, so an event is typed by its type and operation
// from where it is made (the server) or decoded (the live socket adapter) to the reducer and the web: no casts.

const eventSchema = <D extends Schema.Top>(type: string, operation: string, data: D) =>
  Schema.Struct({
    type: Schema.Literal(type),
    operation: Schema.Literal(operation),
    data,
    accessToken: Schema.optionalKey(Schema.String),
    deviceSn: Schema.optionalKey(Schema.String),
  });

type Event<T, O, D> = {
  readonly type: T;
  readonly operation: O;
  readonly data: D;
  readonly accessToken?: string;
  readonly deviceSn?: string;
};
type Events<Side extends "Type" | "Encoded"> = {
  [T in keyof LiveEventData]: {
    [O in keyof LiveEventData[T]]: Event<T, O, LiveEventData[T][O] extends Schema.Top ? LiveEventData[T][O][Side] : never>;
  }[keyof LiveEventData[T]];
}[keyof LiveEventData];

/** A data event that patches the client's cached lists, typed by its type and operation. */
export type LiveEvent = Events<"Type">;
export type LiveEventOf<T extends LiveEvent["type"], O extends LiveEvent["operation"] = LiveEvent["operation"]> = Extract<
  LiveEvent,
  { type: T; operation: O }
>;
/** The operations of one event type, and the data of one (type, operation). */
export type LiveOperationOf<T extends LiveEvent["type"]> = keyof LiveEventData[T] & LiveEvent["operation"];
export type LiveDataOf<T extends LiveEvent["type"], O extends LiveOperationOf<T>> = LiveEventData[T][O] extends Schema.Top
  ? LiveEventData[T][O]["Type"]
  : never;

type EventSchema = Schema.Codec<LiveEvent, Events<"Encoded">, never, never>;
/** type -> operation -> the event's schema. */
const eventSchemas: Record<string, Record<string, EventSchema>> = Object.fromEntries(
  Object.entries(liveEventData).map(([type, byOperation]) => [
    type,
    Object.fromEntries(
      Object.entries(byOperation).map(([operation, data]) => [operation, eventSchema(type, operation, data) as unknown as EventSchema]),
    ),
  ]),
);

/** Every live event as one schema (the union of the (type, operation) schemas). */
export const LiveEventSchema: EventSchema = Schema.Union(
  Object.values(eventSchemas).flatMap((byOperation) => Object.values(byOperation)),
) as unknown as EventSchema;

/** The schema of one (type, operation)'s event, or undefined for a combination the server never sends. */
export const liveEventSchema = (type: string, operation: string): EventSchema | undefined =>
  Object.hasOwn(eventSchemas, type) && Object.hasOwn(eventSchemas[type]!, operation) ? eventSchemas[type]![operation] : undefined;

const EnvelopeSchema = Schema.Struct({ type: LiveEventTypeSchema, operation: LiveOperationSchema });

/** Decode a live event by its type and operation: the error names the field ("data.status", "operation"). */
export const decodeLiveEvent = (input: unknown): Result.Result<LiveEvent, DecodeError> => {
  const { type, operation } = (typeof input === "object" && input !== null ? input : {}) as { type?: unknown; operation?: unknown };
  const schema = typeof type === "string" && typeof operation === "string" ? liveEventSchema(type, operation) : undefined;
  if (schema !== undefined) return decode(schema, input);
  // No such event: say whether the type, the operation or the pair is what is wrong.
  return Result.flatMap(decode(EnvelopeSchema, input), (envelope) => {
    const message = `No ${envelope.operation} event of type ${envelope.type}`;
    return Result.fail({
      _tag: "DecodeError",
      issues: [{ path: "operation", message }],
      field: "operation",
      message: `operation: ${message}`,
    });
  });
};

/** Make a live event from its parts (the server's writes name them apart; the type ties data to type and operation). */
export const liveEvent = <T extends LiveEvent["type"], O extends LiveOperationOf<T>>(
  type: T,
  operation: O,
  data: LiveDataOf<T, O>,
  deviceSn?: string | null,
): LiveEvent => ({ type, operation, data, ...(deviceSn ? { deviceSn } : {}) }) as LiveEvent;

/** Client -> server on open: the access token and a message (seeds: "a logged-in event with the access token and message"). */
export const LoggedInMessageSchema = Schema.Struct({
  type: Schema.Literal("logged_in"),
  accessToken: Schema.String,
  message: Schema.String,
});
/** Client -> server on open and every 15 s. */
export const PingMessageSchema = Schema.Struct({ type: Schema.Literal("ping") });
/** Server -> client answer to ping (our design). */
export const PongMessageSchema = Schema.Struct({ type: Schema.Literal("pong") });
/** Server -> client: the token has expired; the client shows the session-expired dialog. */
export const TokenExpiredMessageSchema = Schema.Struct({
  type: Schema.Literal("token_expired"),
  message: Schema.optionalKey(Schema.String),
});
/** Server -> client: the token could not be verified; handled like token_expired. */
export const TokenVerificationErrorMessageSchema = Schema.Struct({
  type: Schema.Literal("token_verification_error"),
  message: Schema.optionalKey(Schema.String),
});
/** Server -> client: the same user logged in from another web client; this session ends. */
export const AnotherSessionOpenedMessageSchema = Schema.Struct({
  type: Schema.Literal("another_session_opened"),
  message: Schema.optionalKey(Schema.String),
});

export const LiveControlMessageSchema = Schema.Union([
  LoggedInMessageSchema,
  PingMessageSchema,
  PongMessageSchema,
  TokenExpiredMessageSchema,
  TokenVerificationErrorMessageSchema,
  AnotherSessionOpenedMessageSchema,
]);
export type LiveControlMessage = Schema.Schema.Type<typeof LiveControlMessageSchema>;
export const LiveControlTypes = [
  "logged_in",
  "ping",
  "pong",
  "token_expired",
  "token_verification_error",
  "another_session_opened",
] as const;
export type LiveControlType = (typeof LiveControlTypes)[number];

/** Anything that travels on the live socket, in either direction. */
export const LiveMessageSchema = Schema.Union([LiveEventSchema, LiveControlMessageSchema]);
export type LiveMessage = LiveEvent | LiveControlMessage;

export const isLiveEvent = (m: LiveMessage): m is LiveEvent => "operation" in m;
export const isLiveControlMessage = (m: LiveMessage): m is LiveControlMessage => !("operation" in m);

/** Decode one message that came in on the live socket: an event by its type and operation, else a control message. */
export const decodeLiveMessage = (input: unknown): Result.Result<LiveMessage, DecodeError> => {
  if (typeof input === "object" && input !== null && "operation" in input) return decodeLiveEvent(input);
  const type = typeof input === "object" && input !== null ? (input as { type?: unknown }).type : undefined;
  if ((LiveControlTypes as readonly unknown[]).includes(type)) return decode(LiveControlMessageSchema, input);
  const message = `Unknown message type ${JSON.stringify(type)}`;
  return Result.fail({ _tag: "DecodeError", issues: [{ path: "type", message }], field: "type", message: `type: ${message}` });
};
