import type { DeviceView } from "../../core/client/device-view.ts";
import { useClientState } from "../state/client.ts";

// Each lane reads its own headset once per animation frame (`useClientState`'s "frame" pace) and renders only when
// what it shows changed, so a streaming headset re-renders its lane and nothing else.

/** What a lane shows of its device's view (the client builds a fresh view object on every read). */
export const sameView = (a: DeviceView | undefined, b: DeviceView | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.device === b.device &&
    a.status === b.status &&
    a.connection === b.connection &&
    a.liveProgress === b.liveProgress &&
    a.gazeCalibration === b.gazeCalibration &&
    a.runningId === b.runningId);

/** One headset's view, re-rendering the caller only when what a lane shows of it changed. */
export const useDeviceView = (deviceSn: string) => useClientState((c) => c.devices.one(deviceSn), sameView, "frame");
