import { DeviceStatus } from "../../core/model/enums.ts";
import type { ProfileName } from "../perimetry/profiles.ts";

// How long each preparation step of the headset's sequence lasts, in device time at speed 1 (ms). The seeds give no step
// lengths; they give the estimate's additions (scheduling seed §9: "plus 85 with audio guide, 50 with gaze tracking, 120
// with tutorial"), so the audio guide plays 85 s, the gaze calibration takes 50 s and the tutorial 120 s. Countdown and
// the patient's first click are ours and short, so a run stays close to the estimate.

export const STEP_MS = {
  [DeviceStatus.Tutorial]: 120_000,
  [DeviceStatus.AudioPlaying]: 85_000,
  [DeviceStatus.Countdown]: 5_000,
  [DeviceStatus.Calibrating]: 50_000,
} as const;

/** The patient clicks to begin (awaituserinput): 1-3 s after the prompt. */
export const USER_INPUT_MS: readonly [number, number] = [1_000, 3_000];

/** How long a stopped or finished headset shows that status before it returns to awaitmeasurement or standby. */
export const END_HOLD_MS = 5_000;

/** Chance that gaze calibration passes, by patient profile (ours: unreliable responders fail it more often). */
export const CALIBRATION_PASS: Record<ProfileName, number> = {
  healthy: 0.97,
  early: 0.93,
  moderate: 0.9,
  advanced: 0.85,
  hemianopia: 0.88,
  unreliable: 0.6,
};

/** Presentations in a row without a press after which the headset pauses the test: the patient seems to have stopped
 * (ours; long enough that a deep defect under a 4-location window rarely trips it). */
export const UNRESPONSIVE_PAUSE_AFTER = 20;
