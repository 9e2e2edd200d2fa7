import { ConnectionStatus, DeviceStatus, GazeCalibration } from "../model/enums.ts";
import type { CommandKind } from "./protocol.ts";

// The device status machine of the scheduling seed §4 ("Device status", "Running test", "Controls", "Stand-alone mode").

type S = DeviceStatus;
const {
  NotConnected,
  Standby,
  AwaitMeasurement,
  AudioPlaying,
  Countdown,
  AwaitUserInput,
  Calibrating,
  Playing,
  Paused,
  Stopped,
  Finished,
  Tutorial,
} = DeviceStatus;

/** Preparation statuses: "preparing (audio playing, countdown, await user input, calibrating)". */
export const PREPARING: readonly S[] = [AudioPlaying, Countdown, AwaitUserInput, Calibrating];
export const isPreparing = (s: S): boolean => PREPARING.includes(s);

/** "Stop is disabled in standby, stopped or not connected." */
export const isStopDisabled = (s: S): boolean => s === Standby || s === Stopped || s === NotConnected;

/** The play/pause control the technician sees. */
export type PlayControl = { readonly kind: "pause"; readonly disabled: boolean } | { readonly kind: "resume" } | { readonly kind: "start" };

/** "While playing or preparing (audio playing, countdown, await user input, calibrating) a pause button shows, disabled
 * during preparation. Otherwise start shows, or resume when paused." */
export const playControl = (s: S): PlayControl => {
  if (s === Playing) return { kind: "pause", disabled: false };
  if (isPreparing(s)) return { kind: "pause", disabled: true };
  if (s === Paused) return { kind: "resume" };
  return { kind: "start" };
};

/** The status a technician asks for after the confirmation dialog ("stop, pause, play"). */
export type WantedStatus = typeof Stopped | typeof Paused | typeof Playing;

/** The device command that carries a wanted status: play means resume when paused, else start. */
export const commandForWantedStatus = (current: S, wanted: WantedStatus): CommandKind =>
  wanted === Stopped ? "stop" : wanted === Paused ? "pause" : current === Paused ? "resume" : "start";

/** Whether the headset obeys a command in its current status (the same rules the controls show). */
export const isCommandAllowed = (kind: CommandKind, s: S): boolean => {
  switch (kind) {
    case "stop":
      return !isStopDisabled(s);
    case "pause":
      return s === Playing;
    case "resume":
      return s === Paused;
    case "start":
      return playControl(s).kind === "start" && s !== NotConnected;
  }
};

const RUNNING_WHEN_CONNECTED: readonly S[] = [AudioPlaying, AwaitUserInput, Calibrating, Countdown, Stopped, Playing, Paused];

/** "A test counts as running if live progress exists for the device, or the device is connected and in audio playing,
 * awaiting input, calibrating, countdown, stopped, playing or paused." */
export const isTestRunning = (d: { hasLiveProgress: boolean; connection: ConnectionStatus; status: S }): boolean =>
  d.hasLiveProgress || (d.connection === ConnectionStatus.Connected && RUNNING_WHEN_CONNECTED.includes(d.status));

/** "The running test id is the live one, else the first queued perimetry/appointment." */
export const runningTestId = (liveId: string | null, queuedIds: readonly string[]): string | null => liveId ?? queuedIds[0] ?? null;

/** "Gaze calibration: in progress when calibrating, not tested when null, passed when true, failed when false." */
export const gazeCalibrationStatus = (s: S, calibration: boolean | null | undefined): GazeCalibration =>
  s === Calibrating
    ? GazeCalibration.InProgress
    : calibration == null
      ? GazeCalibration.NotTested
      : calibration
        ? GazeCalibration.Passed
        : GazeCalibration.Failed;

/** "The toggle shows only when the device is connected and in standby or await measurement, and is disabled while a
 * test runs." */
export const standaloneToggle = (d: {
  connection: ConnectionStatus;
  status: S;
  testRunning: boolean;
}): { readonly visible: boolean; readonly disabled: boolean } => ({
  visible: d.connection === ConnectionStatus.Connected && (d.status === Standby || d.status === AwaitMeasurement),
  disabled: d.testRunning,
});

// ---- the headset's own sequence ------------------------------------------------------------------------------------
// awaitmeasurement -> tutorial -> audioplaying -> countdown -> calibrating -> awaituserinput -> playing <-> paused
// -> stopped | finished. Tutorial, audio guide and calibration are skipped when the test has them off. Our reading:
// standby is an idle headset; it moves to awaitmeasurement when it has a test to run (queue or stand-alone).

/** What a test turns on, deciding which steps of the sequence it walks. */
export interface SequenceOptions {
  readonly tutorial: boolean;
  readonly audioGuide: boolean;
  readonly trackGaze: boolean;
}

/** The ordered steps from awaitmeasurement to playing for one test. */
export const sequenceSteps = (o: SequenceOptions): readonly S[] => [
  AwaitMeasurement,
  ...(o.tutorial ? [Tutorial] : []),
  ...(o.audioGuide ? [AudioPlaying] : []),
  Countdown,
  ...(o.trackGaze ? [Calibrating] : []),
  AwaitUserInput,
  Playing,
];

/** The next step of the sequence after `s`, or null at playing or outside the preparation run. */
export const nextSequenceStatus = (s: S, o: SequenceOptions): S | null => {
  const steps = sequenceSteps(o);
  const i = steps.indexOf(s);
  return i < 0 || i === steps.length - 1 ? null : steps[i + 1]!;
};

const ALWAYS: Partial<Record<S, readonly S[]>> = {
  [NotConnected]: [Standby],
  [Standby]: [AwaitMeasurement],
  [AwaitMeasurement]: [Tutorial, AudioPlaying, Countdown, Standby],
  [Tutorial]: [AudioPlaying, Countdown],
  [AudioPlaying]: [Countdown],
  [Countdown]: [Calibrating, AwaitUserInput],
  [Calibrating]: [AwaitUserInput],
  [AwaitUserInput]: [Playing],
  [Playing]: [Paused, Finished],
  [Paused]: [Playing],
  [Stopped]: [AwaitMeasurement, Standby],
  [Finished]: [AwaitMeasurement, Standby],
};

/** Whether the headset may move from one status to another: the sequence above, stop from any status where stop is
 * enabled, and not connected from anywhere (power or network loss). */
export const canTransition = (from: S, to: S): boolean =>
  to === NotConnected || (to === Stopped && !isStopDisabled(from)) || (ALWAYS[from]?.includes(to) ?? false);
