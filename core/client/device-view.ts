import {
  gazeCalibrationStatus,
  isStopDisabled,
  isTestRunning,
  playControl,
  runningTestId,
  standaloneToggle,
  type PlayControl,
} from "../device/status.ts";
import type { ConnectionStatus, DeviceStatus, GazeCalibration } from "../model/enums.ts";
import type { Device } from "../model/device.ts";
import type { RunningTest } from "../model/running-test.ts";
import type { Lane } from "../scheduling/lane.ts";
import type { Measurement } from "../model/measurement.ts";
import type { Appointment } from "../model/appointment.ts";
import type { TrackedDevice } from "./device-tracker.ts";
import { batteryDisplay, batteryLed, type BatteryDisplay, type Led } from "../device/battery.ts";

// What a device tile shows, derived from the cached device and its tracked live state with core/device's rules.

export type SchedulingVariant = "measurements" | "appointments";

export interface DeviceView {
  readonly device: Device;
  readonly status: DeviceStatus;
  readonly connection: ConnectionStatus;
  readonly liveProgress: RunningTest | null;
  readonly testRunning: boolean;
  /** The running test's id (perimetry or appointment), null when nothing runs. */
  readonly runningId: string | null;
  readonly stopDisabled: boolean;
  readonly playControl: PlayControl;
  readonly gazeCalibration: GazeCalibration;
  readonly standaloneToggle: { readonly visible: boolean; readonly disabled: boolean };
  /** Display bands of the headset and clicker batteries, and the headset LED (null level: no LED). */
  readonly battery: { readonly vr: BatteryDisplay; readonly clicker: BatteryDisplay; readonly led: Led | null };
}

export function deviceView(device: Device, tracked: TrackedDevice | undefined, variant: SchedulingVariant): DeviceView {
  const status = tracked?.status ?? device.status;
  const connection = tracked?.connection ?? device.connection;
  const liveProgress = tracked?.progress ?? null;
  const testRunning = isTestRunning({ hasLiveProgress: liveProgress !== null, connection, status });
  const liveId = liveProgress === null ? null : variant === "appointments" ? liveProgress.appointmentId : liveProgress.perimetryId;
  const queued = variant === "appointments" ? (device.appointments ?? []).map((a) => a.id) : device.perimetries.map((m) => m.id);
  return {
    device,
    status,
    connection,
    liveProgress,
    testRunning,
    runningId: testRunning ? runningTestId(liveId, queued) : null,
    stopDisabled: isStopDisabled(status),
    playControl: playControl(status),
    gazeCalibration: gazeCalibrationStatus(status, liveProgress?.gazeTracking),
    standaloneToggle: standaloneToggle({ connection, status, testRunning }),
    battery: {
      vr: batteryDisplay(device.battery.vr.level),
      clicker: batteryDisplay(device.battery.clicker.level),
      led: device.battery.vr.level === null ? null : batteryLed(device.battery.vr.level, device.battery.vr.charging),
    },
  };
}

/** The measurement lane of a device for drag planning: the running flag says its first card must stay first. */
export const measurementLane = (view: DeviceView): Lane<Measurement> => ({
  deviceId: view.device.id,
  revision: view.device.revision,
  running: view.testRunning,
  items: view.device.perimetries,
});

export const appointmentLane = (view: DeviceView): Lane<Appointment> => ({
  deviceId: view.device.id,
  revision: view.device.revision,
  running: view.testRunning,
  items: view.device.appointments ?? [],
});
