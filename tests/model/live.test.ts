import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { LiveMessageSchema, decode, decodeLiveEventData, isLiveEvent, type LiveEvent } from "../../core/model/index.ts";

// Live socket messages: "Messages carry type, operation, data, optional accessToken and deviceSn" (scheduling §7).

describe("live messages", () => {
  it("an event with type, operation, data, accessToken and deviceSn decodes as an event", () => {
    const r = decode(LiveMessageSchema, { type: "device", operation: "update", data: { deviceSn: "VR1", status: "paused" }, deviceSn: "VR1", accessToken: "t" });
    expect(Result.isSuccess(r) && isLiveEvent(r.success)).toBe(true);
  });

  it('"On open the client sends a logged-in event with the access token and message, plus a ping"', () => {
    expect(Result.isSuccess(decode(LiveMessageSchema, { type: "logged_in", accessToken: "t", message: "hello" }))).toBe(true);
    expect(Result.isSuccess(decode(LiveMessageSchema, { type: "ping" }))).toBe(true);
  });

  it("token-expired, token-verification-error and another-session-opened are control messages", () => {
    for (const type of ["token_expired", "token_verification_error", "another_session_opened"]) {
      const r = decode(LiveMessageSchema, { type });
      expect(Result.isSuccess(r) && !isLiveEvent(r.success), type).toBe(true);
    }
  });

  it("an unknown operation is refused naming the field", () => {
    const r = decode(LiveMessageSchema, { type: "device", operation: "explode", data: null });
    expect(Result.isFailure(r)).toBe(true);
  });

  it('a status event decodes its data; "an unknown value falls back to not connected"', () => {
    const e: LiveEvent = { type: "device", operation: "update", data: { deviceSn: "VR1", status: "weird" } };
    const r = decodeLiveEventData(e)!;
    expect(Result.isSuccess(r) && r.success).toEqual({ deviceSn: "VR1", status: "notconnected" });
  });

  it("progress data names a bad field", () => {
    const e: LiveEvent = {
      type: "measurement",
      operation: "measurement_progress",
      data: { deviceSn: "VR1", perimetryId: "m", appointmentId: null, nTested: 1, nLocations: 54, gazeTracking: null, thresholds: [{ index: 0, dBValue: "x", answerTime: 300 }], lastUpdatedIndex: 0 },
    };
    const r = decodeLiveEventData(e)!;
    expect(Result.isFailure(r) && r.failure.field).toBe("thresholds.0.dBValue");
  });

  it("trash and delete carry {id}", () => {
    const r = decodeLiveEventData({ type: "patient", operation: "trash", data: { id: "p1" } })!;
    expect(Result.isSuccess(r) && r.success).toEqual({ id: "p1" });
  });
});
