import { Schema } from "effect";
import { LiveEventTypeSchema, LiveOperationSchema } from "./enums.ts";

// Live socket messages (scheduling §4 "Live events", §7 "Live socket"; accounts §4, §7 "Websocket").
// A live event carries {type, operation, data, accessToken?, deviceSn?}. Besides events, the socket carries control
// messages; the seeds name them (logged-in with token and message, ping, token-expired, token-verification-error,
// another session opened) but not their wire form, so the `type` strings below are our design.

/** A data event that patches the client's cached lists. `data` is decoded per type/operation by the client. */
export const LiveEventSchema = Schema.Struct({
  type: LiveEventTypeSchema,
  operation: LiveOperationSchema,
  data: Schema.Unknown,
  accessToken: Schema.optionalKey(Schema.String),
  deviceSn: Schema.optionalKey(Schema.String),
});
export type LiveEvent = Schema.Schema.Type<typeof LiveEventSchema>;

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
export type LiveMessage = Schema.Schema.Type<typeof LiveMessageSchema>;

export const isLiveEvent = (m: LiveMessage): m is LiveEvent => "operation" in m;
export const isLiveControlMessage = (m: LiveMessage): m is LiveControlMessage => !("operation" in m);
