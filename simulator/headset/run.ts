import type { Clock } from "../../core/ports.ts";
import type { HeadsetMessage, QueueItem, TestConfig } from "../../core/device/protocol.ts";
import { DeviceStatus, Eye, TestType } from "../../core/model/enums.ts";
import type { StoppedTest } from "../../core/model/running-test.ts";
import { type PerimetryTest, type PerimetryTestSpec, createPerimetryTest } from "../perimetry/engine.ts";
import { PROFILES, type ProfileName } from "../perimetry/profiles.ts";
import type { Rng } from "../perimetry/random.ts";
import { toMeasurementResult } from "../perimetry/result.ts";
import type { SessionLapse } from "../perimetry/home-behaviour.ts";
import { COLOUR_PLATES } from "../../core/rules/acuity-colour.ts";
import { EXAMINATION_SECONDS, acuityExamination, amslerAnswer, colourExamination } from "./examinations.ts";
import { DeviceTimer } from "./device-timer.ts";
import { type PlayProgress, type Player, playPerimetry, playTimed } from "./player.ts";
import { CALIBRATION_PASS, STEP_MS, USER_INPUT_MS } from "./sequence.ts";

// One run of the headset: a queued measurement, a queued appointment (its examinations in order) or one stand-alone
// repetition. It walks the sequence from awaitmeasurement (tutorial when enabled, audioplaying when the audio guide is
// on, countdown, calibrating when gaze is tracked, awaituserinput, playing <-> paused) to finished, and hands each
// result to the headset as the protocol message that uploads it. Stop ends it without a result.

type S = DeviceStatus;
export type UploadMessage = Extract<HeadsetMessage, { type: "result" | "standaloneResult" | "examinationResult" }>;
export type ProgressMessage = Extract<HeadsetMessage, { type: "progress" }>;

export type RunPlan =
  | Extract<QueueItem, { kind: "measurement" }>
  | Extract<QueueItem, { kind: "appointment" }>
  | {
      readonly kind: "standalone";
      readonly standaloneId: string;
      readonly config: TestConfig;
      readonly resultId: string;
      /** A home patient's lapses this session (simulator/perimetry/home-behaviour.ts). */
      readonly lapse?: SessionLapse;
      /** A home programme's session: its results are taken at this instant (home-sessions.ts), not now. */
      readonly takenAt?: string;
    };

export interface RunContext {
  readonly clock: Clock;
  /** Device time per clock time now: read as each step is scheduled, so the run goes on at a new speed (the headset
   * calls TestRun.speedChanged, which retimes the step under way to the device time it has left). */
  speed(): number;
  readonly rng: Rng;
  readonly deviceSn: string;
  /** Seed root of this headset (tests of one seed repeat exactly). */
  readonly seed: string;
  alias(): string | null;
  /** Wall time for takenAt (the server's clock as of the last welcome). */
  now(): number;
  profileFor(patientId: string): ProfileName;
  ageFor(birthdate: string | null): number | undefined;
}

export interface RunHooks {
  status(s: S, gazeCalibration: boolean | null): void;
  progress(p: ProgressMessage): void;
  upload(m: UploadMessage): void;
  /** The patient stopped pressing: the headset decides whether to pause. */
  patientSilent(): void;
  /** Every task is done (status finished has been set). */
  finished(): void;
  /** The run could not go on (e.g. a configuration the engine does not run); status stopped has been set. */
  failed(message: string): void;
}

/** Which test, as progress names it (the model's running test): a measurement (perimetryId; a stand-alone run's
 * standaloneId) or an appointment's examination. */
export type TestIds = StoppedTest;
const measurementIds = (perimetryId: string): TestIds => ({ perimetryId, appointmentId: null, examinationId: null });

/** One test within a run: what it prepares and what it plays. */
interface Task {
  readonly prelude: readonly S[];
  readonly calibrate: boolean;
  readonly id: TestIds;
  readonly patientId: string;
  play(onProgress: (p: PlayProgress) => void, onDone: (m: UploadMessage) => void, silent: () => void, gaze: boolean | null): Player;
}

const eyesOf = (eye: Eye): Eye[] => (eye === Eye.Both ? [Eye.Right, Eye.Left] : [eye]);

const specOf = (c: TestConfig, eye: Eye): PerimetryTestSpec => ({
  pattern: c.pattern,
  eye,
  strategy: c.strategy,
  sorsStage: c.sorsStage,
  stimuliUpdate: c.stimuliUpdate,
  stimuliShowtime: c.stimuliShowtime,
  stimulusSize: c.stimuliSize,
  trackGaze: c.trackGaze,
});

const prelude = (o: { tutorial: boolean; audioGuide: boolean; calibrate: boolean }): S[] => [
  ...(o.tutorial ? [DeviceStatus.Tutorial] : []),
  ...(o.audioGuide ? [DeviceStatus.AudioPlaying] : []),
  DeviceStatus.Countdown,
  ...(o.calibrate ? [DeviceStatus.Calibrating] : []),
  DeviceStatus.AwaitUserInput,
];

export class TestRun {
  status: S = DeviceStatus.AwaitMeasurement;
  /** The perimetry test being played or last played (inspection). */
  currentTest: PerimetryTest | null = null;
  gazeCalibration: boolean | null = null;
  private readonly tasks: Task[];
  private taskIndex = 0;
  private stepIndex = 0;
  /** The preparation step under way (tutorial, audio guide, countdown, calibration, the first click). */
  private readonly step: DeviceTimer;
  private player: Player | null = null;
  private unresponsive = false;
  private ended = false;

  constructor(
    readonly plan: RunPlan,
    private readonly ctx: RunContext,
    private readonly hooks: RunHooks,
  ) {
    this.step = new DeviceTimer(ctx.clock, () => ctx.speed());
    this.tasks = this.plan.kind === "appointment" ? this.appointmentTasks(this.plan) : this.perimetryTasks(this.plan);
  }

  /** The test under way (preparing or playing), null once the run has ended. */
  get currentIds(): TestIds | null {
    return this.ended ? null : (this.tasks[this.taskIndex]?.id ?? null);
  }

  begin(): void {
    if (this.tasks.length === 0) return this.finish();
    this.next();
  }

  pause(): boolean {
    if (this.status !== DeviceStatus.Playing || !this.player) return false;
    this.player.pause();
    this.setStatus(DeviceStatus.Paused);
    return true;
  }

  resume(): boolean {
    if (this.status !== DeviceStatus.Paused || !this.player) return false;
    this.setStatus(DeviceStatus.Playing);
    this.player.resume();
    return true;
  }

  /** Stop for good; no result. */
  stop(): void {
    if (this.ended) return;
    this.halt();
    this.setStatus(DeviceStatus.Stopped);
  }

  /** Power loss: end silently (no status can be sent). */
  abandon(): void {
    this.halt();
  }

  /** The headset's speed has changed: the step under way (preparation or examination step) keeps the device time it
   * had left, at the new speed; a perimetry stimulus cycle under way ends at its pace. */
  speedChanged(): void {
    this.step.retime();
    this.player?.speedChanged();
  }

  /** Start pressed during the tutorial skips the rest of it. */
  skipTutorial(): boolean {
    if (this.status !== DeviceStatus.Tutorial || !this.step.pending) return false;
    this.step.clear();
    this.stepIndex++;
    this.next();
    return true;
  }

  setUnresponsive(on: boolean): void {
    this.unresponsive = on;
    this.player?.setUnresponsive(on);
  }

  private halt(): void {
    this.ended = true;
    this.step.clear();
    this.player?.stop();
    this.player = null;
  }

  private setStatus(s: S): void {
    this.status = s;
    this.hooks.status(s, this.gazeCalibration);
  }

  /** Walk to the next preparation step of the current task, or play it. */
  private next(): void {
    if (this.ended) return;
    const task = this.tasks[this.taskIndex]!;
    if (this.stepIndex < task.prelude.length) {
      const step = task.prelude[this.stepIndex]!;
      if (step === DeviceStatus.Calibrating) this.gazeCalibration = null;
      this.setStatus(step);
      const ms =
        step === DeviceStatus.AwaitUserInput
          ? this.ctx.rng.uniform(USER_INPUT_MS[0], USER_INPUT_MS[1])
          : STEP_MS[step as keyof typeof STEP_MS];
      this.step.set(ms, () => {
        if (step === DeviceStatus.Calibrating)
          this.gazeCalibration = this.ctx.rng.chance(CALIBRATION_PASS[this.ctx.profileFor(task.patientId)]);
        this.stepIndex++;
        this.next();
      });
      return;
    }
    if (!task.calibrate) this.gazeCalibration = null;
    this.setStatus(DeviceStatus.Playing);
    try {
      this.player = task.play(
        (p) =>
          this.hooks.progress({ type: "progress", ...task.id, ...p, thresholds: [...p.thresholds], gazeTracking: this.gazeCalibration }),
        (m) => this.taskDone(m),
        () => this.hooks.patientSilent(),
        this.gazeCalibration,
      );
      this.player.setUnresponsive(this.unresponsive);
    } catch (e) {
      this.halt();
      this.setStatus(DeviceStatus.Stopped);
      this.hooks.failed(`cannot run ${JSON.stringify(task.id)}: ${(e as Error).message}`);
    }
  }

  private taskDone(m: UploadMessage): void {
    this.player = null;
    this.hooks.upload(m);
    if (this.ended) return;
    this.taskIndex++;
    this.stepIndex = 0;
    if (this.taskIndex < this.tasks.length) this.next();
    else this.finish();
  }

  private finish(): void {
    this.ended = true;
    this.setStatus(DeviceStatus.Finished);
    this.hooks.finished();
  }

  private takenAt(): string {
    if (this.plan.kind === "standalone" && this.plan.takenAt) return this.plan.takenAt;
    return new Date(this.ctx.now()).toISOString();
  }

  private perimetryTask(
    config: TestConfig,
    eye: Eye,
    first: boolean,
    o: { tutorial: boolean; audioGuide: boolean; trackGaze: boolean; lapse?: SessionLapse | undefined },
    id: Task["id"],
    resultIdFor: string,
    upload: (result: ReturnType<typeof toMeasurementResult>) => UploadMessage,
  ): Task {
    const ctx = this.ctx;
    return {
      prelude: prelude({ tutorial: first && o.tutorial, audioGuide: first && o.audioGuide, calibrate: o.trackGaze }),
      calibrate: o.trackGaze,
      id,
      patientId: config.patientId,
      play: (onProgress, onDone, silent, gaze) => {
        const spec = specOf(config, eye);
        const test = createPerimetryTest({
          spec,
          profile: ctx.profileFor(config.patientId),
          seed: `${ctx.seed}/${resultIdFor}/${eye}`,
          patientSeed: `patient/${config.patientId}/${eye}`,
          ...(o.lapse ? { lapse: o.lapse } : {}),
          ...(ctx.ageFor(config.patientBirthdate) === undefined ? {} : { age: ctx.ageFor(config.patientBirthdate)! }),
        });
        this.currentTest = test;
        return playPerimetry(test, ctx.clock, () => ctx.speed(), {
          progress: onProgress,
          patientSilent: silent,
          done: (outcome) => {
            const measurementId = id.perimetryId ?? id.examinationId ?? "";
            onDone(
              upload(
                toMeasurementResult(outcome, spec, {
                  measurementId,
                  patientId: config.patientId,
                  takenAt: this.takenAt(),
                  deviceAlias: ctx.alias(),
                  gazeCalibration: gaze,
                  patientBirthdate: config.patientBirthdate,
                }),
              ),
            );
          },
        });
      },
    };
  }

  private perimetryTasks(plan: Extract<RunPlan, { kind: "measurement" | "standalone" }>): Task[] {
    const c = plan.config;
    const eyes = eyesOf(c.eye);
    return eyes.map((eye, i) => {
      if (plan.kind === "measurement")
        return this.perimetryTask(c, eye, i === 0, c, measurementIds(plan.measurementId), `${plan.measurementId}`, (result) => ({
          type: "result",
          measurementId: plan.measurementId,
          result,
        }));
      // Each eye of a stand-alone run is a result of its own.
      const resultId = eyes.length > 1 ? `${plan.resultId}-${i}` : plan.resultId;
      return this.perimetryTask(c, eye, i === 0, { ...c, lapse: plan.lapse }, measurementIds(plan.standaloneId), resultId, (result) => ({
        type: "standaloneResult",
        standaloneId: plan.standaloneId,
        resultId,
        result,
      }));
    });
  }

  private appointmentTasks(plan: Extract<RunPlan, { kind: "appointment" }>): Task[] {
    const ctx = this.ctx;
    return plan.examinations.map((e, i): Task => {
      const id: TestIds = { perimetryId: null, examinationId: e.examinationId, appointmentId: plan.appointmentId };
      const first = i === 0;
      const upload = (outcome: Extract<UploadMessage, { type: "examinationResult" }>["outcome"]): UploadMessage => ({
        type: "examinationResult",
        appointmentId: plan.appointmentId,
        examinationId: e.examinationId,
        outcome,
      });
      if (e.type === TestType.Perimetry && e.config) {
        const trackGaze = plan.trackGaze && e.config.trackGaze;
        const t = this.perimetryTask(
          { ...e.config, eye: e.eye },
          e.eye === Eye.Both ? Eye.Right : e.eye,
          true,
          { tutorial: first && plan.tutorial, audioGuide: plan.audioGuide, trackGaze },
          id,
          e.examinationId,
          (result) => upload({ type: "perimetry", result }),
        );
        return t;
      }
      const type = e.type;
      // The appointment carries no birthdate; a perimetry examination's config may.
      const birthdate = plan.examinations.find((x) => x.config)?.config?.patientBirthdate ?? null;
      const age = ctx.ageFor(birthdate) ?? PROFILES[ctx.profileFor(plan.patientId)].age;
      return {
        prelude: prelude({ tutorial: first && plan.tutorial, audioGuide: plan.audioGuide, calibrate: false }),
        calibrate: false,
        id,
        patientId: plan.patientId,
        play: (onProgress, onDone, silent) => {
          if (type === TestType.Perimetry) throw new Error("a perimetry examination without a configuration");
          const patient = { patientId: plan.patientId, profile: ctx.profileFor(plan.patientId), age };
          const stamp = () => ({ takenAt: this.takenAt(), deviceSn: ctx.deviceSn, appointmentId: plan.appointmentId });
          // Acuity and colour are read at the start (the steps are the letters and plates shown); Amsler at the end.
          const acuity = type === TestType.Acuity ? acuityExamination(e.eye, patient, ctx.rng.fork()) : null;
          const colour = type === TestType.ColorBlindness ? colourExamination(patient, ctx.rng.fork()) : null;
          const steps = acuity ? acuity.eyes.reduce((n, x) => n + x.optotypesPresented, 0) : colour ? COLOUR_PLATES.length : 1;
          return playTimed(steps, EXAMINATION_SECONDS[type] * 1000 * (acuity?.eyes.length ?? 1), ctx.clock, () => ctx.speed(), {
            progress: onProgress,
            patientSilent: silent,
            done: () => {
              if (acuity) onDone(upload({ type: "acuity", result: { ...acuity, ...stamp() } }));
              else if (colour) onDone(upload({ type: "color-blindness", result: { ...colour, ...stamp() } }));
              else onDone(upload({ type: "amsler", result: { answer: amslerAnswer(patient.profile, ctx.rng.fork()), ...stamp() } }));
            },
          });
        },
      };
    });
  }
}
