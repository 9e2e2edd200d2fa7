import { commandForWantedStatus, isCommandAllowed, type WantedStatus } from "../device/status.ts";
import type { DeviceStatus } from "../model/enums.ts";
import type { StandaloneConfig } from "../model/measurement.ts";
import type { Notice } from "../scheduling/notice.ts";

// Device controls (scheduling seed §4 "Controls", "Stand-alone mode"; §8 "Command to device failed").

/** "The wanted status is sent after a confirmation dialog with three texts (stop, pause, play); then the dialog shows
 * 'command sent' while loading. The dialog resets when the device status changes." */
export type CommandDialog =
  | { readonly phase: "confirm"; readonly wanted: WantedStatus; readonly text: string }
  | { readonly phase: "sending"; readonly wanted: WantedStatus; readonly text: "command sent" };

/** The confirmation texts (stop, pause, play). */
export const CONFIRM_TEXT: Readonly<Record<WantedStatus, string>> = {
  stopped: "Stop the test on this device?",
  paused: "Pause the test on this device?",
  playing: "Start the test on this device?",
};

export const COMMAND_FAILED_NOTICE: Notice = {
  kind: "error",
  title: "Error sending the command to the VR device",
  hint: "Use the controller or clicker",
  durationMs: 5_000,
};

/** Whether the control for `wanted` is enabled in status `s` (the same rules the headset obeys). */
export const canAskFor = (s: DeviceStatus, wanted: WantedStatus): boolean => isCommandAllowed(commandForWantedStatus(s, wanted), s);

/** Body of device/standalone: the configuration to turn it on, null to turn it off ("turning off sends null"). */
export type StandaloneSwitch = StandaloneConfig | null;
