import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ConnectionStatus, DeviceStatus, GazeCalibration } from "../../core/model/enums.ts";
import {
  canTransition,
  commandForWantedStatus,
  gazeCalibrationStatus,
  isCommandAllowed,
  isStopDisabled,
  isTestRunning,
  nextSequenceStatus,
  playControl,
  runningTestId,
  sequenceSteps,
  standaloneToggle,
} from "../../core/device/status.ts";

const all = Object.values(DeviceStatus);
const S = DeviceStatus;
const { Connected, Disconnected } = ConnectionStatus;

describe("controls (scheduling seed §4 Controls)", () => {
  it("'Stop is disabled in standby, stopped or not connected.'", () => {
    const disabled = all.filter(isStopDisabled).sort();
    expect(disabled).toEqual([S.NotConnected, S.Standby, S.Stopped].sort());
  });

  it("'While playing or preparing (audio playing, countdown, await user input, calibrating) a pause button shows, disabled during preparation.'", () => {
    expect(playControl(S.Playing)).toEqual({ kind: "pause", disabled: false });
    for (const s of [S.AudioPlaying, S.Countdown, S.AwaitUserInput, S.Calibrating])
      expect(playControl(s)).toEqual({ kind: "pause", disabled: true });
  });

  it("'Otherwise start shows, or resume when paused.'", () => {
    expect(playControl(S.Paused)).toEqual({ kind: "resume" });
    for (const s of [S.NotConnected, S.Standby, S.AwaitMeasurement, S.Stopped, S.Finished, S.Tutorial])
      expect(playControl(s)).toEqual({ kind: "start" });
  });

  it("the wanted status (stop, pause, play) maps to a command; play resumes when paused", () => {
    expect(commandForWantedStatus(S.Playing, S.Stopped)).toBe("stop");
    expect(commandForWantedStatus(S.Playing, S.Paused)).toBe("pause");
    expect(commandForWantedStatus(S.Paused, S.Playing)).toBe("resume");
    expect(commandForWantedStatus(S.Standby, S.Playing)).toBe("start");
  });

  it("the headset obeys exactly the commands the controls offer enabled", () => {
    for (const s of all) {
      const c = playControl(s);
      expect(isCommandAllowed("stop", s)).toBe(!isStopDisabled(s));
      expect(isCommandAllowed("pause", s)).toBe(c.kind === "pause" && !c.disabled);
      expect(isCommandAllowed("resume", s)).toBe(c.kind === "resume");
      expect(isCommandAllowed("start", s)).toBe(c.kind === "start" && s !== S.NotConnected);
    }
  });
});

describe("running test (scheduling seed §4 Running test)", () => {
  it("'A test counts as running if live progress exists for the device, or the device is connected and in audio playing, awaiting input, calibrating, countdown, stopped, playing or paused.'", () => {
    const running: DeviceStatus[] = [S.AudioPlaying, S.AwaitUserInput, S.Calibrating, S.Countdown, S.Stopped, S.Playing, S.Paused];
    for (const s of all) {
      expect(isTestRunning({ hasLiveProgress: false, connection: Connected, status: s })).toBe(running.includes(s));
      expect(isTestRunning({ hasLiveProgress: false, connection: Disconnected, status: s })).toBe(false);
      expect(isTestRunning({ hasLiveProgress: true, connection: Disconnected, status: s })).toBe(true);
    }
  });

  it("'The running test id is the live one, else the first queued perimetry/appointment.'", () => {
    expect(runningTestId("live", ["a", "b"])).toBe("live");
    expect(runningTestId(null, ["a", "b"])).toBe("a");
    expect(runningTestId(null, [])).toBeNull();
  });
});

describe("gaze calibration (scheduling seed §4 Controls)", () => {
  it("'Gaze calibration: in progress when calibrating, not tested when null, passed when true, failed when false.'", () => {
    expect(gazeCalibrationStatus(S.Calibrating, true)).toBe(GazeCalibration.InProgress);
    expect(gazeCalibrationStatus(S.Playing, null)).toBe(GazeCalibration.NotTested);
    expect(gazeCalibrationStatus(S.Playing, undefined)).toBe(GazeCalibration.NotTested);
    expect(gazeCalibrationStatus(S.Playing, true)).toBe(GazeCalibration.Passed);
    expect(gazeCalibrationStatus(S.Playing, false)).toBe(GazeCalibration.Failed);
  });
});

describe("stand-alone switch (scheduling seed §4 Stand-alone mode)", () => {
  it("'The toggle shows only when the device is connected and in standby or await measurement, and is disabled while a test runs.'", () => {
    for (const s of all)
      for (const connection of [Connected, Disconnected])
        for (const testRunning of [false, true]) {
          const t = standaloneToggle({ connection, status: s, testRunning });
          expect(t.visible).toBe(connection === Connected && (s === S.Standby || s === S.AwaitMeasurement));
          expect(t.disabled).toBe(testRunning);
        }
  });
});

describe("headset sequence", () => {
  const options = fc.record({ tutorial: fc.boolean(), audioGuide: fc.boolean(), trackGaze: fc.boolean() });

  it("walks awaitmeasurement -> tutorial -> audioplaying -> countdown -> calibrating -> awaituserinput -> playing, skipping what is off", () => {
    expect(sequenceSteps({ tutorial: true, audioGuide: true, trackGaze: true })).toEqual([
      S.AwaitMeasurement,
      S.Tutorial,
      S.AudioPlaying,
      S.Countdown,
      S.Calibrating,
      S.AwaitUserInput,
      S.Playing,
    ]);
    expect(sequenceSteps({ tutorial: false, audioGuide: false, trackGaze: false })).toEqual([
      S.AwaitMeasurement,
      S.Countdown,
      S.AwaitUserInput,
      S.Playing,
    ]);
  });

  it("every step of every sequence is an allowed transition, and the walk ends at playing", () => {
    fc.assert(
      fc.property(options, (o) => {
        let s: DeviceStatus = S.AwaitMeasurement;
        let n = 0;
        for (let next = nextSequenceStatus(s, o); next; next = nextSequenceStatus(s, o)) {
          expect(canTransition(s, next)).toBe(true);
          s = next;
          n++;
        }
        expect(s).toBe(S.Playing);
        expect(n).toBe(sequenceSteps(o).length - 1);
      }),
      { numRuns: 20 },
    );
  });

  it("playing <-> paused, then stopped or finished; stop only where stop is enabled", () => {
    expect(canTransition(S.Playing, S.Paused)).toBe(true);
    expect(canTransition(S.Paused, S.Playing)).toBe(true);
    expect(canTransition(S.Playing, S.Finished)).toBe(true);
    expect(canTransition(S.Paused, S.Finished)).toBe(false);
    for (const s of all) expect(canTransition(s, S.Stopped)).toBe(!isStopDisabled(s) || false);
    expect(canTransition(S.Standby, S.Playing)).toBe(false);
  });
});
