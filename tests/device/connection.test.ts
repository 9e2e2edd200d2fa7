import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ConnectionStatus, DeviceStatus } from "../../core/model/enums.ts";
import {
  DEVICE_DISCONNECT_TIMEOUT_MS,
  DEVICE_HEARTBEAT_INTERVAL_MS,
  LIVE_PROGRESS_CLEAR_MS,
  connectionAt,
  hasLiveProgressAt,
  initialConnection,
  nextDeadline,
  onAbnormalClose,
  onDisconnection,
  onHeartbeat,
  onProgress,
  onStatus,
  tick,
} from "../../core/device/connection.ts";

const { Connected, Disconnected } = ConnectionStatus;
const standby = onStatus(initialConnection, DeviceStatus.Standby);

describe("connection tracking (scheduling seed §4 Connection)", () => {
  it("'A heartbeat marks a device connected (disconnected if its status is not connected).'", () => {
    expect(onHeartbeat(standby, 0).connection).toBe(Connected);
    expect(onHeartbeat(initialConnection, 0).connection).toBe(Disconnected);
    expect(onStatus(onHeartbeat(standby, 0), DeviceStatus.NotConnected).connection).toBe(Disconnected);
  });

  it("'An abnormal close or a disconnection event marks it disconnected.'", () => {
    const c = onHeartbeat(standby, 0);
    expect(onAbnormalClose(c).connection).toBe(Disconnected);
    expect(onDisconnection(c).connection).toBe(Disconnected);
  });

  it("'No heartbeat for 4 s marks it disconnected.' (device disconnect timeout 4 s)", () => {
    expect(DEVICE_DISCONNECT_TIMEOUT_MS).toBe(4000);
    const c = onHeartbeat(standby, 10_000);
    expect(connectionAt(c, 13_999)).toBe(Connected);
    expect(connectionAt(c, 14_000)).toBe(Disconnected);
    expect(tick(c, 14_000).connection).toBe(Disconnected);
  });

  it("heartbeats every interval keep a device connected at every instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: DEVICE_HEARTBEAT_INTERVAL_MS - 1 }), (beats, offset) => {
        let c = standby;
        for (let i = 0; i < beats; i++) c = onHeartbeat(c, i * DEVICE_HEARTBEAT_INTERVAL_MS);
        expect(connectionAt(c, (beats - 1) * DEVICE_HEARTBEAT_INTERVAL_MS + offset)).toBe(Connected);
      }),
      { numRuns: 50 },
    );
  });

  it("'Live progress per device is cleared 5 s after updates stop and on abnormal close.'", () => {
    expect(LIVE_PROGRESS_CLEAR_MS).toBe(5000);
    const c = onProgress(onHeartbeat(standby, 0), 1_000);
    expect(hasLiveProgressAt(c, 5_999)).toBe(true);
    expect(hasLiveProgressAt(c, 6_000)).toBe(false);
    expect(tick(c, 6_000).lastProgressAt).toBeNull();
    expect(onAbnormalClose(c).lastProgressAt).toBeNull();
  });

  it("the next deadline is the earlier of the two timeouts", () => {
    const c = onProgress(onHeartbeat(standby, 0), 500);
    expect(nextDeadline(c)).toBe(4_000);
    expect(nextDeadline(initialConnection)).toBeNull();
  });
});
