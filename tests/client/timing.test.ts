import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { createConnectivity, OFFLINE_DEBOUNCE_MS } from "../../core/client/connectivity.ts";
import { createDeviceTracker } from "../../core/client/device-tracker.ts";
import { progress, device } from "./fixtures.ts";

// Timing rules, driven by the virtual clock (no wall-clock waits, no timing assertions on the machine).

describe("device tracking (scheduling seed §4 'Connection')", () => {
  const setup = () => {
    const clock = createVirtualClock();
    let changes = 0;
    const tracker = createDeviceTracker(clock, () => changes++);
    return { clock, tracker, changes: () => changes };
  };

  it("'A heartbeat marks a device connected ... No heartbeat for 4 s marks it disconnected.'", () => {
    const { clock, tracker } = setup();
    tracker.status("SN1", "standby");
    tracker.connection("SN1", "CONNECTED");
    expect(tracker.get("SN1")!.connection).toBe("CONNECTED");
    clock.advance(3_000);
    tracker.connection("SN1", "CONNECTED");
    clock.advance(3_999);
    expect(tracker.get("SN1")!.connection).toBe("CONNECTED");
    clock.advance(1);
    expect(tracker.get("SN1")!.connection).toBe("DISCONNECTED");
    expect(clock.pending()).toBe(0);
  });

  it("a heartbeat that repeats what the tile shows moves the 4 s deadline and announces nothing; a change is announced", () => {
    const { clock, tracker, changes } = setup();
    tracker.status("SN1", "standby");
    tracker.connection("SN1", "CONNECTED");
    const shown = changes();
    for (let beat = 0; beat < 5; beat++) {
      clock.advance(2_000);
      tracker.connection("SN1", "CONNECTED");
      tracker.status("SN1", "standby");
    }
    expect(changes()).toBe(shown);
    expect(tracker.get("SN1")!.connection).toBe("CONNECTED");
    tracker.status("SN1", "awaitmeasurement");
    expect(changes()).toBe(shown + 1);
    clock.advance(4_000);
    expect(tracker.get("SN1")!.connection).toBe("DISCONNECTED");
    expect(changes()).toBe(shown + 2);
    tracker.connection("SN1", "CONNECTED");
    expect(changes()).toBe(shown + 3);
  });

  it("'(disconnected if its status is not connected)'", () => {
    const { tracker } = setup();
    tracker.status("SN1", "notconnected");
    tracker.connection("SN1", "CONNECTED");
    expect(tracker.get("SN1")!.connection).toBe("DISCONNECTED");
  });

  it("'Live progress per device is cleared 5 s after updates stop'", () => {
    const { clock, tracker, changes } = setup();
    tracker.progress("SN1", progress());
    clock.advance(4_000);
    tracker.progress("SN1", progress({ nTested: 4 }));
    clock.advance(4_999);
    expect(tracker.get("SN1")!.progress?.nTested).toBe(4);
    const before = changes();
    clock.advance(1);
    expect(tracker.get("SN1")!.progress).toBeNull();
    expect(changes()).toBe(before + 1);
  });

  it("'An abnormal close ... marks it disconnected' and clears live progress at once", () => {
    const { tracker } = setup();
    tracker.seed([device("SN1", { status: "playing", connection: "CONNECTED" })]);
    tracker.progress("SN1", progress());
    tracker.abnormalClose();
    expect(tracker.get("SN1")).toEqual({ status: "playing", connection: "DISCONNECTED", progress: null });
  });

  it("a fetched connected device stays connected only while heartbeats keep coming", () => {
    const { clock, tracker } = setup();
    tracker.seed([device("SN1", { connection: "CONNECTED" }), device("SN2", { connection: "DISCONNECTED" })]);
    expect(tracker.get("SN1")!.connection).toBe("CONNECTED");
    expect(tracker.get("SN2")!.connection).toBe("DISCONNECTED");
    clock.advance(4_000);
    expect(tracker.get("SN1")!.connection).toBe("DISCONNECTED");
  });
});

describe("offline detection (accounts seed §4 'Connectivity')", () => {
  it("'offline is reported only after 2 s; back online clears it at once'", () => {
    const clock = createVirtualClock();
    const seen: boolean[] = [];
    const c = createConnectivity(clock, (offline) => seen.push(offline));
    c.setOnline(false);
    clock.advance(OFFLINE_DEBOUNCE_MS - 1);
    expect(c.offline).toBe(false);
    c.setOnline(true);
    clock.advance(10_000);
    expect(c.offline).toBe(false);
    expect(seen).toEqual([]);
    c.setOnline(false);
    clock.advance(OFFLINE_DEBOUNCE_MS);
    expect(c.offline).toBe(true);
    c.setOnline(true);
    expect(c.offline).toBe(false);
    expect(seen).toEqual([true, false]);
    expect(OFFLINE_DEBOUNCE_MS).toBe(2000);
  });
});
