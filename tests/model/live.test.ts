import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  LiveEventType,
  LiveOperation,
  LiveMessageSchema,
  decode,
  decodeLiveEvent,
  decodeLiveMessage,
  isLiveEvent,
  liveEventData,
  liveEventSchema,
} from "../../core/model/index.ts";
import * as arb from "./arbitraries.ts";

// Live socket messages: "Messages carry type, operation, data, optional accessToken and deviceSn" (scheduling §7).
// Each (type, operation) the server sends has its own schema, so an event's data is checked by what it is.

describe("live messages", () => {
  it("an event with type, operation, data, accessToken and deviceSn decodes as an event", () => {
    const r = decodeLiveMessage({
      type: "device",
      operation: "update",
      data: { deviceSn: "VR1", status: "paused" },
      deviceSn: "VR1",
      accessToken: "t",
    });
    expect(Result.isSuccess(r) && isLiveEvent(r.success)).toBe(true);
    expect(Result.isSuccess(decode(LiveMessageSchema, { type: "device", operation: "update", data: { deviceSn: "VR1" } }))).toBe(true);
  });

  it('"On open the client sends a logged-in event with the access token and message, plus a ping"', () => {
    expect(Result.isSuccess(decodeLiveMessage({ type: "logged_in", accessToken: "t", message: "hello" }))).toBe(true);
    expect(Result.isSuccess(decodeLiveMessage({ type: "ping" }))).toBe(true);
  });

  it("token-expired, token-verification-error and another-session-opened are control messages", () => {
    for (const type of ["token_expired", "token_verification_error", "another_session_opened"]) {
      const r = decodeLiveMessage({ type });
      expect(Result.isSuccess(r) && !isLiveEvent(r.success), type).toBe(true);
    }
  });

  it("an unknown operation, or one the type never has, is refused naming the operation", () => {
    const unknown = decodeLiveMessage({ type: "device", operation: "explode", data: null });
    expect(Result.isFailure(unknown) && unknown.failure.field).toBe("operation");
    const foreign = decodeLiveEvent({ type: "patient", operation: "measurement_progress", data: {} });
    expect(Result.isFailure(foreign) && foreign.failure.message).toBe("operation: No measurement_progress event of type patient");
  });

  it('a status event decodes its data; "an unknown value falls back to not connected"', () => {
    const r = decodeLiveEvent({ type: "device", operation: "update", data: { deviceSn: "VR1", status: "weird" } });
    expect(Result.isSuccess(r) && r.success.data).toEqual({ deviceSn: "VR1", status: "notconnected" });
  });

  it("progress data names a bad field", () => {
    const r = decodeLiveEvent({
      type: "measurement",
      operation: "measurement_progress",
      data: {
        deviceSn: "VR1",
        perimetryId: "m",
        appointmentId: null,
        nTested: 1,
        nLocations: 54,
        gazeTracking: null,
        thresholds: [{ index: 0, dBValue: "x", answerTime: 300 }],
        lastUpdatedIndex: 0,
      },
    });
    expect(Result.isFailure(r) && r.failure.field).toBe("data.thresholds.0.dBValue");
  });

  it("trash and delete carry {id}", () => {
    const r = decodeLiveEvent({ type: "patient", operation: "trash", data: { id: "p1" } });
    expect(Result.isSuccess(r) && r.success.data).toEqual({ id: "p1" });
    expect(Result.isFailure(decodeLiveEvent({ type: "patient", operation: "delete", data: { patientId: "p1" } }))).toBe(true);
  });

  it("every type has a schema for the operations the seeds give it, and only for those in the table", () => {
    for (const type of Object.values(LiveEventType))
      for (const operation of Object.values(LiveOperation))
        expect(liveEventSchema(type, operation) !== undefined, `${type}/${operation}`).toBe(Object.hasOwn(liveEventData[type], operation));
    // "insert or restore adds; update replaces; trash or delete removes" for every entity type
    for (const type of ["device", "patient", "measurement", "examination", "appointment"] as const)
      for (const operation of ["insert", "restore", "update", "trash", "delete"])
        expect(liveEventSchema(type, operation), `${type}/${operation}`).toBeDefined();
  });
});

describe("every live event", () => {
  it("decodes by its type and operation to what was sent (through JSON text)", () => {
    fc.assert(
      fc.property(arb.liveEvent, (event) => {
        const r = decodeLiveMessage(JSON.parse(JSON.stringify(event)));
        expect(Result.isSuccess(r) && r.success).toEqual(event);
      }),
      { numRuns: 300 },
    );
  });
});
