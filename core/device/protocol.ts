import { Result, Schema } from "effect";
import {
  DeviceStatusSchema,
  EyeSchema,
  PatternSchema,
  ShowtimeSchema,
  SorsLocationsSchema,
  StimuliUpdateSchema,
  StimulusSizeSchema,
  StrategySchema,
  TestTypeSchema,
} from "../model/enums.ts";
import { RunningTestSchema, StoppedTestSchema } from "../model/running-test.ts";
import { type Decodable, type DecodeError, decode, decodeError, parseJson } from "../model/decode.ts";
import { HomeScheduleSchema } from "../model/contract/home.ts";
import { ExaminationResult, PerimetryResult } from "./result.ts";

// The headset <-> server device-socket protocol, version 2. JSON text frames, one message each, discriminated by `type`.
// A headset opens with `hello` carrying its serial and its proof: the device credential it was enrolled with, or the
// one-time pairing code a manager gave it (the server answers `enrolled` with the credential to keep). Then `welcome`
// (or `refused` naming the reason, and the socket closes), the device's `queue` and `standalone` setting, and again
// whenever they change. Version 1 had no proof in its hello and is refused (protocol-version).

export const PROTOCOL_VERSION = 2 as const;

const Id = Schema.String;
/** Battery level in percent, or null when the device does not report one ("none" in the display bands). */
const Level = Schema.NullOr(Schema.Number);

export const Battery = Schema.Struct({ vr: Level, clicker: Level, vrCharging: Schema.Boolean, clickerCharging: Schema.Boolean });
export type Battery = typeof Battery.Type;

// ---- headset -> server -------------------------------------------------------------------------------------------

/** The first frame. Exactly one of credential (the device credential, core/device/enrolment.ts) and pairingCode. */
export const Hello = Schema.Struct({
  type: Schema.Literal("hello"),
  protocolVersion: Schema.Literal(PROTOCOL_VERSION),
  deviceSn: Schema.String,
  firmware: Schema.String,
  credential: Schema.optionalKey(Schema.String),
  pairingCode: Schema.optionalKey(Schema.String),
});
export const Heartbeat = Schema.Struct({ type: Schema.Literal("heartbeat"), battery: Battery });
export const Status = Schema.Struct({
  type: Schema.Literal("status"),
  status: DeviceStatusSchema,
  /** Gaze calibration outcome: true passed, false failed, null not tested (absent: unchanged). */
  gazeCalibration: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
});
/** Live progress of the running measurement or examination: the model's running test (core/model/running-test.ts),
 * so the server passes it on to the browsers as it is. Exactly one of perimetryId (a measurement's id, a stand-alone
 * run's standaloneId) and examinationId (with its appointmentId). */
export const Progress = Schema.Struct({ type: Schema.Literal("progress"), ...RunningTestSchema.fields });
export const ResultUpload = Schema.Struct({ type: Schema.Literal("result"), measurementId: Id, result: PerimetryResult });
/** Result of one examination of an appointment (Amsler, acuity, colour vision or perimetry). */
export const ExaminationResultUpload = Schema.Struct({
  type: Schema.Literal("examinationResult"),
  appointmentId: Id,
  examinationId: Id,
  /** Tagged by test type: { type: "amsler", result: AmslerResult } and so on. */
  outcome: ExaminationResult,
});
export const Ack = Schema.Struct({
  type: Schema.Literal("ack"),
  commandId: Id,
  ok: Schema.Boolean,
  error: Schema.optionalKey(Schema.String),
});
/** A stand-alone run's result; resultId is unique per run so the server stores it exactly once. */
export const StandaloneResult = Schema.Struct({
  type: Schema.Literal("standaloneResult"),
  standaloneId: Id,
  resultId: Id,
  result: PerimetryResult,
});
/** The clicker dropped out: the running test stopped (error catalogue: "Clicker disconnected: test stopped message").
 * Which test, in the running test's words (core/model/running-test.ts StoppedTest): all null when no test was under
 * way. Sent before the status stopped that follows it. */
export const ClickerDisconnected = Schema.Struct({ type: Schema.Literal("clickerDisconnected"), ...StoppedTestSchema.fields });

export const headsetMessages = {
  hello: Hello,
  heartbeat: Heartbeat,
  status: Status,
  progress: Progress,
  result: ResultUpload,
  examinationResult: ExaminationResultUpload,
  ack: Ack,
  standaloneResult: StandaloneResult,
  clickerDisconnected: ClickerDisconnected,
} as const;
export const HeadsetMessage = Schema.Union(Object.values(headsetMessages));
export type HeadsetMessage = typeof HeadsetMessage.Type;
export type HeadsetMessageType = keyof typeof headsetMessages;

// ---- server -> headset -------------------------------------------------------------------------------------------

export const Welcome = Schema.Struct({
  type: Schema.Literal("welcome"),
  protocolVersion: Schema.Literal(PROTOCOL_VERSION),
  deviceSn: Schema.String,
  alias: Schema.NullOr(Schema.String),
  /** Server clock, ms since epoch, so the headset can stamp results consistently. */
  serverTime: Schema.Number,
  /** Its organisation, for the route parameter of its later connections (core/model/socket-route.ts): a cluster's
   * proxy then places it with its organisation's browsers. Absent from servers before it; a headset keeps the last. */
  route: Schema.optionalKey(Schema.String),
});
/** Why a headset is refused (and its socket closed): a bad first frame, a serial no organisation enrolled, a device
 * never enrolled or revoked (also: enrolled again, its old credential void), a wrong credential or a wrong, used or
 * expired pairing code, or a serial already connected with another credential. */
export const RefusalReason = Schema.Literals([
  "protocol-version",
  "malformed",
  "unknown-device",
  "not-enrolled",
  "revoked",
  "wrong-credential",
  "already-connected",
]);
export type RefusalReason = typeof RefusalReason.Type;
export const Refused = Schema.Struct({ type: Schema.Literal("refused"), reason: RefusalReason, message: Schema.String });
/** Answer to a hello with a pairing code: the device credential to present from now on (sent once, before welcome). */
export const Enrolled = Schema.Struct({ type: Schema.Literal("enrolled"), deviceSn: Schema.String, credential: Schema.String });
export const CommandKind = Schema.Literals(["start", "pause", "resume", "stop"]);
export type CommandKind = typeof CommandKind.Type;
export const Command = Schema.Struct({ type: Schema.Literal("command"), commandId: Id, kind: CommandKind });

/** Measurement configuration as the headset needs it (scheduling seed §3 Measurement and examination config). */
export const TestConfig = Schema.Struct({
  patientId: Id,
  /** ISO date; the headset derives the age for its normal values. */
  patientBirthdate: Schema.NullOr(Schema.String),
  displayName: Schema.String,
  eye: EyeSchema,
  pattern: PatternSchema,
  strategy: StrategySchema,
  sorsStage: Schema.NullOr(SorsLocationsSchema),
  stimuliUpdate: StimuliUpdateSchema,
  stimuliSize: StimulusSizeSchema,
  stimuliShowtime: ShowtimeSchema,
  playSound: Schema.Boolean,
  trackGaze: Schema.Boolean,
  audioGuide: Schema.Boolean,
  tutorial: Schema.Boolean,
});
export type TestConfig = typeof TestConfig.Type;

export const QueuedMeasurement = Schema.Struct({ kind: Schema.Literal("measurement"), measurementId: Id, config: TestConfig });
export const QueuedExamination = Schema.Struct({
  examinationId: Id,
  type: TestTypeSchema,
  eye: EyeSchema,
  /** Perimetry config; null for Amsler, acuity and colour vision. */
  config: Schema.NullOr(TestConfig),
});
export const QueuedAppointment = Schema.Struct({
  kind: Schema.Literal("appointment"),
  appointmentId: Id,
  patientId: Id,
  audioGuide: Schema.Boolean,
  tutorial: Schema.Boolean,
  trackGaze: Schema.Boolean,
  /** In order; examinations already taken are left out. */
  examinations: Schema.Array(QueuedExamination),
});
export const QueueItem = Schema.Union([QueuedMeasurement, QueuedAppointment]);
export type QueueItem = typeof QueueItem.Type;
/** The device's queue, the leftmost (next to run) first. */
export const Queue = Schema.Struct({ type: Schema.Literal("queue"), items: Schema.Array(QueueItem) });

/** A repeat the clinic asked for (core/home/repeat.ts): one more run of the test for these eyes within its window
 * (calendar dates in the programme's zone, both days included), beside the regular sessions. */
export const HomeRepeatSetting = Schema.Struct({
  number: Schema.Int,
  eyes: Schema.Array(EyeSchema),
  from: Schema.String,
  to: Schema.String,
});
export type HomeRepeatSetting = typeof HomeRepeatSetting.Type;
/** A home programme's schedule (issue 31): when its sessions fall due, so the headset runs each one unattended.
 * `repeats`: the repeats still pending, absent when none is (added later: a headset that does not know the field
 * ignores it, as a decoder ignores fields its schema does not name, and keeps to the regular sessions). */
export const HomeSetting = Schema.Struct({
  programmeId: Id,
  ...HomeScheduleSchema.fields,
  repeats: Schema.optionalKey(Schema.Array(HomeRepeatSetting)),
});
export type HomeSetting = typeof HomeSetting.Type;
/** Stand-alone setting: the measurement config to repeat offline, or null to switch stand-alone off. `home` is set
 * while the headset is lent for a home programme (absent otherwise; a headset that does not know it repeats the test
 * as ever, and the server still takes only the results of sessions due). */
export const Standalone = Schema.Struct({
  type: Schema.Literal("standalone"),
  standaloneId: Schema.NullOr(Id),
  config: Schema.NullOr(TestConfig),
  home: Schema.optionalKey(HomeSetting),
});
/** The upload is off the headset's outbox. `refused` names why it was not stored (a home result not due, or from a
 * headset no longer bound); absent when stored now or before. */
export const ResultAccepted = Schema.Struct({
  type: Schema.Literal("resultAccepted"),
  resultId: Id,
  refused: Schema.optionalKey(Schema.String),
});

export const serverMessages = {
  welcome: Welcome,
  refused: Refused,
  enrolled: Enrolled,
  command: Command,
  queue: Queue,
  standalone: Standalone,
  resultAccepted: ResultAccepted,
} as const;
export const ServerMessage = Schema.Union(Object.values(serverMessages));
export type ServerMessage = typeof ServerMessage.Type;
export type ServerMessageType = keyof typeof serverMessages;

// ---- decoding ----------------------------------------------------------------------------------------------------

const byType =
  <M extends Record<string, Schema.Top & { readonly DecodingServices: never }>>(messages: M) =>
  (input: unknown): Result.Result<M[keyof M]["Type"], DecodeError> => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return Result.fail(decodeError("", "Expected an object"));
    const type = (input as { type?: unknown }).type;
    if (typeof type !== "string" || !Object.hasOwn(messages, type))
      return Result.fail(decodeError("type", `Unknown message type ${JSON.stringify(type)}`));
    const decoded = decode(messages[type]! as Decodable<M[keyof M]["Type"]>, input);
    if (Result.isFailure(decoded)) return decoded;
    return Result.succeed(decoded.success as M[keyof M]["Type"]);
  };

const checkHelloProof = (m: typeof Hello.Type): Result.Result<HeadsetMessage, DecodeError> =>
  (m.credential !== undefined) !== (m.pairingCode !== undefined)
    ? Result.succeed(m)
    : Result.fail(decodeError("credential", "Expected exactly one of credential or pairingCode"));

/** What the schemas alone cannot say: a hello's one proof, a progress's one id. */
const checkShape = (m: HeadsetMessage): Result.Result<HeadsetMessage, DecodeError> => {
  if (m.type === "hello") return checkHelloProof(m);
  if (m.type !== "progress") return Result.succeed(m);
  const has = (m.perimetryId !== null ? 1 : 0) + ((m.examinationId ?? null) !== null ? 1 : 0);
  return has === 1 ? Result.succeed(m) : Result.fail(decodeError("perimetryId", "Expected exactly one of perimetryId or examinationId"));
};

/** Decode a headset -> server message (already parsed JSON). */
export const decodeHeadsetMessage = (input: unknown): Result.Result<HeadsetMessage, DecodeError> =>
  Result.flatMap(byType(headsetMessages)(input) as Result.Result<HeadsetMessage, DecodeError>, checkShape);

/** Decode a server -> headset message (already parsed JSON). */
export const decodeServerMessage = (input: unknown): Result.Result<ServerMessage, DecodeError> =>
  byType(serverMessages)(input) as Result.Result<ServerMessage, DecodeError>;

/** Parse and decode one text frame from a headset. */
export const readHeadsetFrame = (text: string): Result.Result<HeadsetMessage, DecodeError> =>
  Result.flatMap(parseJson(text), decodeHeadsetMessage);

/** Parse and decode one text frame from the server. */
export const readServerFrame = (text: string): Result.Result<ServerMessage, DecodeError> =>
  Result.flatMap(parseJson(text), decodeServerMessage);

/** Encode a message as a text frame (all fields are JSON-native). */
export const frame = (message: HeadsetMessage | ServerMessage): string => JSON.stringify(message);
