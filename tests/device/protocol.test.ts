import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import {
  PROTOCOL_VERSION,
  type HeadsetMessage,
  type ServerMessage,
  frame,
  headsetMessages,
  readHeadsetFrame,
  readServerFrame,
  serverMessages,
} from "../../core/device/protocol.ts";
import type { PerimetryResult } from "../../core/device/result.ts";
import { RunningTestSchema } from "../../core/model/running-test.ts";
import { decode } from "../../core/model/decode.ts";

const result: PerimetryResult = {
  measurementId: "m1",
  patientId: "p1",
  takenAt: "2026-11-22T03:00:00.000Z",
  eye: 0,
  pattern: 1,
  strategy: 1,
  sorsStage: null,
  stimulusSize: 2,
  stimuliShowtime: 200,
  stimuliInterval: 9999,
  meanUpdateTime: 1500,
  presentations: 250,
  examinationTimeInSeconds: 560,
  maxIntensity: 0,
  thresholds: [30, 29],
  defects: [0, 1],
  normValues: [30, 30],
  meanSensitivity: 29.5,
  meanDefect: 0.5,
  squareRootLossVariance: 0.7,
  vfi: 99,
  falseNegatives: 0,
  falsePositives: 0.05,
  fixationLosses: 0.1,
  catchTrials: {
    falseNegative: { errors: 0, presentations: 5 },
    falsePositive: { errors: 1, presentations: 20 },
    blindSpot: { errors: 1, presentations: 10 },
  },
  gazeTracking: { meanDistance: [1.2, -1, 0.8], fixationThreshold: 3 },
  estermanScore: null,
  reliabilityScore: 90,
  normativeVersion: "2024-06-05",
  gazeCalibration: true,
  background: 31.5,
  deviceAlias: null,
};
const config = {
  patientId: "p1",
  patientBirthdate: "1960-01-01",
  displayName: "OD 24-2",
  eye: 0,
  pattern: 1,
  strategy: 1,
  sorsStage: null,
  stimuliUpdate: 9999,
  stimuliSize: 2,
  stimuliShowtime: 200,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
} as const;

const headset: HeadsetMessage[] = [
  { type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0001", firmware: "sim-1", credential: "isd1.secret" },
  { type: "heartbeat", battery: { vr: 80, clicker: null, vrCharging: false, clickerCharging: true } },
  { type: "status", status: "calibrating" },
  { type: "status", status: "playing", gazeCalibration: null },
  {
    type: "progress",
    perimetryId: "m1",
    appointmentId: null,
    nTested: 2,
    nLocations: 54,
    thresholds: [{ index: 3, dBValue: 28, answerTime: 420 }],
    lastUpdatedIndex: 3,
    gazeTracking: true,
  },
  {
    type: "progress",
    perimetryId: null,
    examinationId: "e1",
    appointmentId: "a1",
    nTested: 0,
    nLocations: 54,
    thresholds: [],
    lastUpdatedIndex: null,
    gazeTracking: null,
  },
  { type: "result", measurementId: "m1", result },
  {
    type: "examinationResult",
    appointmentId: "a1",
    examinationId: "e2",
    outcome: { type: "amsler", result: { answer: "wavy", takenAt: "2026-11-22T03:00:00Z", deviceSn: "VR-0001", appointmentId: "a1" } },
  },
  { type: "ack", commandId: "c1", ok: false, error: "not allowed in standby" },
  { type: "standaloneResult", standaloneId: "s1", resultId: "r1", result },
  { type: "clickerDisconnected", perimetryId: null, appointmentId: null, examinationId: null },
  { type: "clickerDisconnected", perimetryId: "m1", appointmentId: null, examinationId: null },
  { type: "clickerDisconnected", perimetryId: null, examinationId: "e1", appointmentId: "a1" },
  { type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0002", firmware: "sim-1", pairingCode: "ABCDE-FGHJK" },
];
const server: ServerMessage[] = [
  { type: "welcome", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0001", alias: null, serverTime: 1 },
  { type: "welcome", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0001", alias: "Room 2", serverTime: 1, route: "org-1" },
  { type: "refused", reason: "protocol-version", message: "speak version 2" },
  { type: "refused", reason: "already-connected", message: "Headset VR-0001 is connected with another credential" },
  { type: "enrolled", deviceSn: "VR-0002", credential: "isd1.secret" },
  { type: "command", commandId: "c1", kind: "pause" },
  {
    type: "queue",
    items: [
      { kind: "measurement", measurementId: "m1", config },
      {
        kind: "appointment",
        appointmentId: "a1",
        patientId: "p1",
        audioGuide: true,
        tutorial: false,
        trackGaze: true,
        examinations: [{ examinationId: "e1", type: "amsler", eye: 0, config: null }],
      },
    ],
  },
  { type: "standalone", standaloneId: "s1", config },
  { type: "standalone", standaloneId: null, config: null },
  { type: "resultAccepted", resultId: "r1" },
];

describe("device protocol v2", () => {
  it("every message type has an example that survives a frame round trip", () => {
    expect(new Set(headset.map((m) => m.type))).toEqual(new Set(Object.keys(headsetMessages)));
    expect(new Set(server.map((m) => m.type))).toEqual(new Set(Object.keys(serverMessages)));
    for (const m of headset) expect(Result.getOrThrow(readHeadsetFrame(frame(m)))).toEqual(m);
    for (const m of server) expect(Result.getOrThrow(readServerFrame(frame(m)))).toEqual(m);
  });

  const failure = (r: Result.Result<unknown, { field: string; message: string }>) => (Result.isFailure(r) ? r.failure : undefined);

  it("failures name the offending field", () => {
    expect(
      failure(readHeadsetFrame('{"type":"heartbeat","battery":{"vr":"full","clicker":1,"vrCharging":false,"clickerCharging":false}}'))
        ?.field,
    ).toBe("battery.vr");
    expect(failure(readHeadsetFrame(frame({ ...headset[4]!, thresholds: [{ index: 1, dBValue: 2 }] } as never)))?.field).toBe(
      "thresholds.0.answerTime",
    );
    expect(failure(readHeadsetFrame(frame({ ...headset[6]!, result: { ...result, eye: 9 } } as never)))?.field).toBe("result.eye");
    expect(failure(readServerFrame('{"type":"command","commandId":"c","kind":"jump"}'))?.field).toBe("kind");
    expect(failure(readHeadsetFrame('{"type":"teleport"}'))?.field).toBe("type");
    expect(failure(readHeadsetFrame("not json"))?.field).toBe("");
    expect(failure(readHeadsetFrame("[1]"))?.message).toMatch(/object/);
  });

  it("hello with another protocol version (v1 had no credential) is refused at decoding", () => {
    const { credential: _c, ...v1 } = headset[0] as Extract<HeadsetMessage, { type: "hello" }>;
    expect(failure(readHeadsetFrame(frame({ ...v1, protocolVersion: 1 } as never)))?.field).toBe("protocolVersion");
  });

  it("hello carries exactly one of credential or pairing code (issue 15: 'the headset presents its credential in its first frame')", () => {
    const { credential: _c, ...none } = headset[0] as Extract<HeadsetMessage, { type: "hello" }>;
    expect(failure(readHeadsetFrame(frame(none as never)))?.field).toBe("credential");
    expect(failure(readHeadsetFrame(frame({ ...headset[0]!, pairingCode: "ABCDE-FGHJK" } as never)))?.field).toBe("credential");
  });

  it("progress is the model's running test, with exactly one of perimetryId or examinationId", () => {
    const progress = headset[4] as Extract<HeadsetMessage, { type: "progress" }>;
    expect(failure(readHeadsetFrame(frame({ ...progress, perimetryId: null })))?.field).toBe("perimetryId");
    expect(failure(readHeadsetFrame(frame({ ...progress, examinationId: "e" })))?.field).toBe("perimetryId");
    const { type: _, ...running } = progress;
    expect(Result.isSuccess(decode(RunningTestSchema, running))).toBe(true);
  });

  it("arbitrary JSON never throws, it decodes or names a field", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = readHeadsetFrame(JSON.stringify(v));
        if (Result.isFailure(r)) expect(typeof r.failure.field).toBe("string");
      }),
      { numRuns: 200 },
    );
  });
});
