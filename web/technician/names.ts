import { msg } from "@lingui/core/macro";
import type { I18n, MessageDescriptor } from "@lingui/core";
import {
  DeviceStatus,
  GazeCalibration,
  SocketState,
  type StimuliUpdate,
  type StimulusSize,
  type TestType,
} from "../../core/model/enums.ts";

// How the technician view names device statuses and measurement settings (translated).

export const deviceStatusNames: Record<DeviceStatus, MessageDescriptor> = {
  [DeviceStatus.NotConnected]: msg`Not connected`,
  [DeviceStatus.Standby]: msg`Ready to start`,
  [DeviceStatus.AwaitMeasurement]: msg`Waiting for a measurement`,
  [DeviceStatus.AudioPlaying]: msg`Audio guide playing`,
  [DeviceStatus.Countdown]: msg`Countdown`,
  [DeviceStatus.AwaitUserInput]: msg`Waiting for the patient's click`,
  [DeviceStatus.Calibrating]: msg`Calibrating gaze`,
  [DeviceStatus.Playing]: msg`Test running`,
  [DeviceStatus.Paused]: msg`Paused`,
  [DeviceStatus.Stopped]: msg`Stopped`,
  [DeviceStatus.Finished]: msg`Finished`,
  [DeviceStatus.Tutorial]: msg`Tutorial`,
};

const sizeNumerals: Record<StimulusSize, string> = { 0: "I", 1: "II", 2: "III", 3: "IV", 4: "V", 5: "III" };
const adaptiveSize = msg`III adaptive`;

/** Goldmann sizes are Roman numerals in every language; only "III adaptive" has words to translate. */
export const sizeName = (size: StimulusSize, i18n: I18n): string => (size === 5 ? i18n._(adaptiveSize) : sizeNumerals[size]);

/** Stimuli update in ms, or 'Adaptive' for 9999. */
export const stimuliUpdateName = (value: StimuliUpdate, adaptive: string): string => (value === 9999 ? adaptive : `${value} ms`);

/** Seconds as "6 min 12 s" style parts. */
export const minutesSeconds = (seconds: number): { minutes: number; seconds: number } => ({
  minutes: Math.floor(seconds / 60),
  seconds: Math.round(seconds % 60),
});

/** The seed's websocket state messages (scheduling seed §8; English texts in core/client/socket-state). */
export const socketStateNames: Record<SocketState, MessageDescriptor> = {
  [SocketState.Uninstantiated]: msg`Live connection not established`,
  [SocketState.Connecting]: msg`Connecting to live updates`,
  [SocketState.Open]: msg`Live updates connected`,
  [SocketState.Closing]: msg`Closing live updates`,
  [SocketState.Closed]: msg`Live updates disconnected`,
};

export const testTypeNames: Record<TestType, MessageDescriptor> = {
  perimetry: msg`Perimetry`,
  amsler: msg`Amsler grid`,
  acuity: msg`Visual acuity`,
  "color-blindness": msg`Colour vision`,
};

/** "Gaze calibration: in progress when calibrating, not tested when null, passed when true, failed when false." */
export const gazeCalibrationNames: Record<GazeCalibration, MessageDescriptor> = {
  [GazeCalibration.InProgress]: msg`Gaze calibration in progress`,
  [GazeCalibration.NotTested]: msg`Gaze calibration not tested`,
  [GazeCalibration.Passed]: msg`Gaze calibration passed`,
  [GazeCalibration.Failed]: msg`Gaze calibration failed`,
};
