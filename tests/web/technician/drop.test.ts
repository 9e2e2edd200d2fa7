import { describe, expect, it } from "vitest";
import { createStore } from "jotai";
import { ApiError } from "../../../core/model/contract/index.ts";
import { createDeviceTracker } from "../../../core/client/device-tracker.ts";
import { DeviceStatus } from "../../../core/model/enums.ts";
import { createVirtualClock } from "../../../adapters/clock/index.ts";
import { devicesAtom, flashingLanesAtom, trackerAtom } from "../../../web/state/devices.ts";
import { dropMeasurement, ERROR_FLASH_MS } from "../../../web/state/devices-commands.ts";
import { fakeApi } from "../render-app.tsx";
import { device, measurement } from "./fixtures.ts";

const order = (store: ReturnType<typeof createStore>) =>
  Object.fromEntries(store.get(devicesAtom).devices.map((d) => [d.id, d.perimetries.map((m) => m.id)]));

function setup(answer: (input: any) => unknown) {
  const store = createStore();
  store.set(devicesAtom, {
    status: "success",
    devices: [
      device(1, [measurement("a"), measurement("b")], { revision: 4 }),
      device(2, [measurement("r"), measurement("l", { isFollowingEye: "r", eye: 1 }), measurement("c")], { revision: 7 }),
    ],
  });
  const { api, calls } = fakeApi({ "device.dragAndDropPerimetry": answer });
  let refetches = 0;
  const waits: number[] = [];
  const deps = { store, api, refetch: async () => { refetches++; }, wait: async (ms: number) => { waits.push(ms); } };
  return { store, calls, deps, refetches: () => refetches, waits };
}

describe("dragging measurement cards (scheduling seed §4)", () => {
  it("'The list is reordered optimistically, then the new order is sent with the device revisions'", async () => {
    let seenDuringCall: unknown;
    const s = setup((input) => {
      seenDuringCall = order(s.store);
      return { from: { deviceId: "d1", revision: 5 }, to: { deviceId: "d2", revision: 8 } };
    });
    const result = await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 0 }, destination: { deviceId: "d2", index: 3 } });
    expect(result.outcome).toBe("saved");
    expect(seenDuringCall).toEqual({ d1: ["b"], d2: ["r", "l", "c", "a"] });
    expect(s.calls[0]!.input.body).toEqual({
      movedPerimetryId: "a",
      from: { deviceId: "d1", perimetriesIds: ["b"], revision: 4 },
      to: { deviceId: "d2", perimetriesIds: ["r", "l", "c", "a"], revision: 7 },
    });
    // The answer's revisions are kept for the next drag.
    expect(s.store.get(devicesAtom).devices.map((d) => d.revision)).toEqual([5, 8]);
  });

  it("'A measurement paired with another-eye one moves together with it'", async () => {
    const s = setup(() => ({ from: { deviceId: "d2", revision: 8 }, to: { deviceId: "d1", revision: 5 } }));
    await dropMeasurement(s.deps, { source: { deviceId: "d2", index: 1 }, destination: { deviceId: "d1", index: 1 } });
    expect(order(s.store)).toEqual({ d1: ["a", "r", "l", "b"], d2: ["c"] });
  });

  it("'A drop between two paired measurements ... is refused with notice 'cannot drop here' (3 s) and a hint'; nothing is sent", async () => {
    const s = setup(() => { throw new Error("must not be called"); });
    const result = await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 0 }, destination: { deviceId: "d2", index: 1 } });
    expect(result).toMatchObject({ outcome: "refused", notice: { title: "cannot drop here", hint: "no items between linked cards", durationMs: 3000 } });
    expect(s.calls).toHaveLength(0);
    expect(order(s.store)).toEqual({ d1: ["a", "b"], d2: ["r", "l", "c"] });
  });

  it("'Drops where destination equals source are ignored.'", async () => {
    const s = setup(() => { throw new Error("must not be called"); });
    expect((await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 1 }, destination: { deviceId: "d1", index: 1 } })).outcome).toBe("ignored");
    expect((await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 1 }, destination: null })).outcome).toBe("ignored");
    expect(s.calls).toHaveLength(0);
  });

  it("'If a test is running on the target device the target index shifts by one so the running item stays first.'", async () => {
    const s = setup(() => ({ from: { deviceId: "d2", revision: 8 }, to: { deviceId: "d1", revision: 5 } }));
    const tracker = createDeviceTracker(createVirtualClock(0), () => {});
    tracker.seed(s.store.get(devicesAtom).devices);
    tracker.status("SN1", DeviceStatus.Playing);
    s.store.set(trackerAtom, tracker);
    await dropMeasurement(s.deps, { source: { deviceId: "d2", index: 2 }, destination: { deviceId: "d1", index: 0 } });
    expect(order(s.store).d1).toEqual(["a", "c", "b"]);
    // The running card itself does not move.
    expect((await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 0 }, destination: { deviceId: "d1", index: 2 } })).outcome).toBe("ignored");
  });

  it("'On conflict (HTTP 409 or error type device_revision_conflict) devices are refetched.'", async () => {
    const s = setup(() => { throw new ApiError({ status: 409, responseType: "device_revision_conflict", message: "stale" }); });
    const result = await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 0 }, destination: { deviceId: "d1", index: 1 } });
    expect(result.outcome).toBe("conflict");
    expect(s.refetches()).toBe(1);
    expect(s.waits).toEqual([]);
  });

  it("'On any other failure the affected devices flash an error state for 500 ms and then refetch.'", async () => {
    let flashing: ReadonlySet<string> | undefined;
    const s = setup(() => { throw new ApiError({ status: 500, responseType: "internal", message: "boom" }); });
    s.deps.wait = async (ms: number) => { s.waits.push(ms); flashing = s.store.get(flashingLanesAtom); };
    const result = await dropMeasurement(s.deps, { source: { deviceId: "d1", index: 0 }, destination: { deviceId: "d2", index: 3 } });
    expect(result.outcome).toBe("failed");
    expect(s.waits).toEqual([ERROR_FLASH_MS]);
    expect(ERROR_FLASH_MS).toBe(500);
    expect([...flashing!].sort()).toEqual(["d1", "d2"]);
    expect(s.store.get(flashingLanesAtom).size).toBe(0);
    expect(s.refetches()).toBe(1);
  });
});
