import { atom, type createStore } from "jotai";
import { createDeviceTracker, type DeviceTracker, type TrackedDevice } from "../../core/client/device-tracker.ts";
import { reduceLiveEvent, type LiveEffect } from "../../core/client/live-reducer.ts";
import { CacheKey } from "../../core/client/cache-keys.ts";
import { emptySnapshot, getEntry, setEntry } from "../../core/client/cache-snapshot.ts";
import { isLiveEvent, type LiveEvent, type LiveMessage } from "../../core/model/live.ts";
import type { Device } from "../../core/model/device.ts";
import { SocketState } from "../../core/model/enums.ts";
import type { Notice } from "../../core/scheduling/notice.ts";
import type { Api, Clock, Socket } from "../../core/ports.ts";
import { sessionEndAtom } from "./session.ts";

// The technician view's live device list: device/all, patched by live events through core/client's reducer, with
// each headset's status, connection and running test tracked by core/client's device tracker (4 s heartbeat rule,
// 5 s live-progress rule). One instance runs while /technician is open.

export type DevicesState =
  | { readonly status: "loading"; readonly devices: readonly Device[] }
  | { readonly status: "error"; readonly devices: readonly Device[]; readonly error: unknown }
  | { readonly status: "success"; readonly devices: readonly Device[] };

export const devicesAtom = atom<DevicesState>({ status: "loading", devices: [] });
/** Bumped whenever the tracker's view of any device changes; lanes read the tracker after it. */
export const trackerTickAtom = atom(0);
export const trackerAtom = atom<DeviceTracker | null>(null);
export const socketStateAtom = atom<SocketState>(SocketState.Uninstantiated);
/** Devices (ids) whose lanes show the 500 ms error flash after a failed drop. */
export const flashingLanesAtom = atom<ReadonlySet<string>>(new Set<string>());

type Store = ReturnType<typeof createStore>;

export interface DevicesLiveOptions {
  readonly api: Api;
  readonly socket: Socket | null;
  readonly clock: Clock;
  /** A notice from a live event (measurement ready). */
  readonly onNotice: (notice: Notice) => void;
}

export interface DevicesLive {
  refetch(): Promise<void>;
  /** Apply a live event (exposed for tests). */
  apply(event: LiveEvent): void;
  dispose(): void;
}

export const trackedOf = (tracker: DeviceTracker | null, deviceSn: string): TrackedDevice | undefined => tracker?.get(deviceSn);

/** Starts loading devices and listening to the live socket; `dispose` stops both. */
export function startDevicesLive(store: Store, options: DevicesLiveOptions): DevicesLive {
  const { api, socket, clock } = options;
  let disposed = false;
  let generation = 0;
  const tracker = createDeviceTracker(clock, () => {
    if (!disposed) store.set(trackerTickAtom, (n) => n + 1);
  });
  store.set(trackerAtom, tracker);

  async function refetch() {
    const mine = ++generation;
    const current = store.get(devicesAtom);
    try {
      const devices = await api.call("device.all", {});
      if (disposed || mine !== generation) return;
      tracker.seed(devices);
      store.set(devicesAtom, { status: "success", devices });
    } catch (error) {
      if (disposed || mine !== generation) return;
      // A failed refetch keeps the lanes already shown; only a first load shows the error state.
      if (current.status !== "success") store.set(devicesAtom, { status: "error", devices: current.devices, error });
    }
  }

  function runEffect(effect: LiveEffect) {
    switch (effect.kind) {
      case "refetch":
        if (effect.key === CacheKey.Devices) void refetch();
        return;
      case "notice":
        return options.onNotice(effect.notice);
      case "device-status":
        return tracker.status(effect.deviceSn, effect.status);
      case "connection":
        return tracker.connection(effect.deviceSn, effect.connection);
      case "progress":
        return tracker.progress(effect.deviceSn, effect.progress);
      default:
        return;
    }
  }

  function apply(event: LiveEvent) {
    const state = store.get(devicesAtom);
    const snapshot = setEntry(emptySnapshot, { key: CacheKey.Devices, params: {}, status: "success", data: state.devices, error: undefined });
    const outcome = reduceLiveEvent(snapshot, event, { viewedPatientId: null });
    const devices = getEntry(outcome.snapshot, CacheKey.Devices, {})?.data;
    if (devices && devices !== state.devices && state.status === "success") store.set(devicesAtom, { status: "success", devices });
    for (const effect of outcome.effects) runEffect(effect);
  }

  function onMessage(message: LiveMessage) {
    if (disposed) return;
    if (isLiveEvent(message)) return apply(message);
    if (message.type === "token_expired" || message.type === "token_verification_error") store.set(sessionEndAtom, "expired");
    if (message.type === "another_session_opened") store.set(sessionEndAtom, "another-session");
  }

  let wasOpen = false;
  const unsubscribers: Array<() => void> = [];
  if (socket) {
    unsubscribers.push(socket.subscribe(onMessage));
    unsubscribers.push(
      socket.onState((state) => {
        if (disposed) return;
        store.set(socketStateAtom, state);
        if (state === SocketState.Closed && wasOpen) tracker.abnormalClose();
        // Events may have been missed while the socket was down: read the lanes again once it is back.
        if (state === SocketState.Open && wasOpen) void refetch();
        if (state === SocketState.Open) wasOpen = true;
      }),
    );
    socket.connect();
  }
  void refetch();

  return {
    refetch,
    apply,
    dispose() {
      disposed = true;
      for (const u of unsubscribers) u();
      socket?.close();
      tracker.dispose();
      store.set(trackerAtom, null);
    },
  };
}

/** Changes some fields of one listed device (e.g. the alias the server confirmed) without touching the rest. */
export const patchDeviceAtom = atom(null, (get, set, args: { id: string; patch: Partial<Device> }) => {
  const state = get(devicesAtom);
  if (state.status !== "success") return;
  set(devicesAtom, { status: "success", devices: state.devices.map((d) => (d.id === args.id ? { ...d, ...args.patch } : d)) });
});
