import { type PatternGeometry, getPattern } from "../../core/analytics/patterns.ts";
import type { ThresholdPoint } from "../../core/model/running-test.ts";
import type { CatchTrials } from "../../core/model/measurement-result.ts";
import {
  type Eye,
  Pattern,
  type Showtime,
  type SorsLocations,
  type StimuliUpdate,
  type StimulusSize,
  type Strategy,
} from "../../core/model/enums.ts";
import { hillOfVision } from "./hill.ts";
import { type ObserverLapse, withLapse } from "./home-behaviour.ts";
import { FIXATION_THRESHOLD_DEG, type GazeSample, type Response, type SimulatedPatient, createPatient } from "./patient.ts";
import type { Procedure } from "./procedures/procedure.ts";
import { PROFILES, type ProfileName } from "./profiles.ts";
import { type Rng, createRng } from "./random.ts";
import { loadSorsModel } from "./sors-fixtures.ts";
import type { SorsModel } from "./sors.ts";
import { type StrategyPlan, planStrategy } from "./strategy-plan.ts";
import { createStimulusTimer } from "./timing.ts";

// The perimetry engine: one test of one simulated patient, driven one presentation at a time. Each step() shows a stimulus
// (or a catch trial), draws the patient's response and gaze, advances the test's own device time by one stimulus cycle
// and reports the live progress a headset streams. Time here is device time at speed 1; a driver (run.ts, the virtual
// headset) waits cycleMs / speed on its Clock between steps.

export type CatchTrialKind = "falsePositive" | "falseNegative" | "blindSpot";

export interface CatchTrialRates {
  /** Nothing shown; a press is a false positive. */
  readonly falsePositive: number;
  /** A location already seen, 9 dB brighter; a miss is a false negative. */
  readonly falseNegative: number;
  /** A stimulus at the physiological blind spot (Heijl-Krakau); seen = fixation loss. Monocular tests only. */
  readonly blindSpot: number;
}

/** Share of presentations that are catch trials (Heijl-Krakau: about 5 % at the blind spot). */
export const DEFAULT_CATCH_RATES: CatchTrialRates = { falsePositive: 0.05, falseNegative: 0.05, blindSpot: 0.05 };
/** Level of blind-spot catch stimuli and of the false-negative catch offset (dB). */
export const BLIND_SPOT_CATCH_DB = 10;
export const FALSE_NEGATIVE_OFFSET_DB = 9;
/** Luminance of 0 dB in cd/m2 (10000 asb): L = (10000 / pi) 10^(-dB/10). */
export const MAX_INTENSITY_CD_M2 = 10000 / Math.PI;

export interface PerimetryTestSpec {
  readonly pattern: Pattern;
  readonly eye: Eye;
  readonly strategy: Strategy;
  readonly sorsStage?: SorsLocations | null;
  readonly stimuliUpdate: StimuliUpdate;
  readonly stimuliShowtime: Showtime;
  /** Stimulus size (reported only; the simulated observer does not depend on it). Default III. */
  readonly stimulusSize?: StimulusSize;
  /** Record gaze samples (the result's gazeTracking); fixation losses happen either way. Default true. */
  readonly trackGaze?: boolean;
  readonly catchTrialRates?: CatchTrialRates;
}

export interface Presentation {
  /** 1-based count of presentations so far. */
  readonly n: number;
  /** Device time at stimulus onset, ms since the test started. */
  readonly at: number;
  /** Length of this stimulus cycle, ms (the driver waits this long / speed). */
  readonly cycleMs: number;
  /** Pattern location, or null for a catch trial away from the pattern (false positive, blind spot). */
  readonly index: number | null;
  readonly catchTrial: CatchTrialKind | null;
  /** dB shown, or null when nothing was shown. */
  readonly level: number | null;
  readonly seen: boolean;
  readonly responseTime: number | null;
  readonly gaze: GazeSample;
}

export interface LiveProgress {
  readonly nTested: number;
  readonly nLocations: number;
  readonly thresholds: readonly ThresholdPoint[];
  readonly lastUpdatedIndex: number | null;
}

export interface StepOutcome {
  readonly presentation: Presentation;
  /** Progress after this step; null for catch trials (which do not change it). */
  readonly progress: LiveProgress | null;
  /** The location finished by this step, if any. */
  readonly finishedIndex: number | null;
  readonly done: boolean;
}

export interface PerimetryOutcome {
  /** dB per pattern location (SORS: untested locations reconstructed); screening: the level when seen, 0 when missed. */
  readonly thresholds: readonly number[];
  /** Which locations were tested (all but SORS's reconstructed ones). */
  readonly tested: readonly boolean[];
  /** Screening strategies: seen or missed per location (null where untested); null for thresholding strategies. */
  readonly seen: readonly (boolean | null)[] | null;
  /** The age-normal hill at each location (simulator/perimetry/hill.ts). */
  readonly normalValues: readonly number[];
  readonly presentationsPerLocation: readonly number[];
  /** Every stimulus and catch trial. */
  readonly presentations: number;
  /** Stimuli at pattern locations only. */
  readonly locationPresentations: number;
  readonly durationMs: number;
  readonly meanUpdateTimeMs: number;
  readonly catchTrials: CatchTrials;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly fixationLosses: number;
  readonly gazeTracking: { readonly meanDistance: readonly number[]; readonly fixationThreshold: number } | null;
  readonly estermanScore: number | null;
  readonly maxIntensity: number;
}

interface Slot {
  readonly index: number;
  readonly procedure: Procedure;
  lastResponseTime: number | null;
}

const ratio = (t: { errors: number; presentations: number }) => (t.presentations ? t.errors / t.presentations : 0);

export class PerimetryTest {
  readonly geometry: PatternGeometry;
  readonly plan: StrategyPlan;
  private readonly rates: CatchTrialRates;
  private readonly timer;
  private readonly active: Slot[] = [];
  private readonly pending: number[];
  private readonly finished = new Map<number, number>();
  private readonly slots = new Map<number, Slot>();
  private readonly tally = {
    falsePositive: { errors: 0, presentations: 0 },
    falseNegative: { errors: 0, presentations: 0 },
    blindSpot: { errors: 0, presentations: 0 },
  };
  private readonly seenLevels = new Map<number, number>();
  private readonly gazeSamples: number[] = [];
  private readonly updates: number[] = [];
  private n = 0;
  private locationN = 0;
  private time = 0;
  private lastIndex: number | null = null;
  /** The patient has stopped pressing the clicker (a fault): every response is "not seen". */
  unresponsive = false;
  /** Presentations in a row without a press. */
  private silentRun = 0;

  constructor(
    readonly spec: PerimetryTestSpec,
    readonly patient: SimulatedPatient,
    private readonly rng: Rng,
    loadSors: (pattern: Pattern) => SorsModel = loadSorsModel,
  ) {
    this.geometry = getPattern(spec.pattern);
    this.plan = planStrategy(this.geometry, spec.strategy, spec.sorsStage, patient.age, loadSors);
    this.rates = spec.catchTrialRates ?? DEFAULT_CATCH_RATES;
    this.timer = createStimulusTimer(spec.stimuliUpdate, spec.stimuliShowtime);
    this.pending = [...this.plan.locations];
    this.fill();
  }

  get done(): boolean {
    return this.active.length === 0 && this.pending.length === 0;
  }

  /** Device time elapsed, ms (sum of the cycles shown so far). */
  get elapsedMs(): number {
    return this.time;
  }

  /** Cycle length of the next presentation, ms. */
  get nextCycleMs(): number {
    return this.timer.cycle();
  }

  get nLocations(): number {
    return this.plan.locations.length;
  }

  /** Presentations in a row without a press (a headset pauses a test when the patient seems to have stopped). */
  get unansweredInARow(): number {
    return this.silentRun;
  }

  /** Show the next stimulus or catch trial. */
  step(): StepOutcome {
    if (this.done) throw new Error("PerimetryTest.step: the test is finished");
    const cycleMs = this.timer.cycle();
    this.updates.push(this.timer.update());
    const gaze = this.patient.gaze();
    if (this.spec.trackGaze ?? true) this.gazeSamples.push(gaze.distance);
    const at = this.time;
    this.time += cycleMs;
    this.n++;
    const kind = this.pickCatchTrial();
    const window = cycleMs; // a response counts until the next onset
    const inTime = (r: Response): Response => {
      const counted =
        this.unresponsive || (r.seen && r.responseTime !== null && r.responseTime > window) ? { seen: false, responseTime: null } : r;
      this.silentRun = counted.seen ? 0 : this.silentRun + 1;
      return counted;
    };

    if (kind) {
      const { index, level, response } = this.catchTrial(kind, gaze);
      const r = inTime(response);
      this.timer.observe(r.responseTime);
      const presentation: Presentation = {
        n: this.n,
        at,
        cycleMs,
        index,
        catchTrial: kind,
        level,
        seen: r.seen,
        responseTime: r.responseTime,
        gaze,
      };
      return { presentation, progress: null, finishedIndex: null, done: this.done };
    }

    const slot = this.pickSlot();
    const level = slot.procedure.nextLevel();
    const r = inTime(this.patient.respondAt(slot.index, level, gaze));
    this.timer.observe(r.responseTime);
    slot.procedure.record(level, r.seen);
    if (r.seen) {
      slot.lastResponseTime = r.responseTime;
      this.seenLevels.set(slot.index, Math.max(level, this.seenLevels.get(slot.index) ?? -Infinity));
    }
    this.locationN++;
    this.lastIndex = slot.index;
    let finishedIndex: number | null = null;
    if (slot.procedure.done) {
      this.finished.set(slot.index, slot.procedure.estimate());
      this.active.splice(this.active.indexOf(slot), 1);
      finishedIndex = slot.index;
      this.fill();
    }
    const presentation: Presentation = {
      n: this.n,
      at,
      cycleMs,
      index: slot.index,
      catchTrial: null,
      level,
      seen: r.seen,
      responseTime: r.responseTime,
      gaze,
    };
    return { presentation, progress: this.progress(), finishedIndex, done: this.done };
  }

  /** Live progress: every location presented so far (dBValue once finished), the last one presented. */
  progress(): LiveProgress {
    const thresholds: ThresholdPoint[] = [...this.slots.values()]
      .filter((s) => s.procedure.presentations > 0)
      .sort((a, b) => a.index - b.index)
      .map((s) => ({ index: s.index, dBValue: this.finished.get(s.index) ?? null, answerTime: s.lastResponseTime }));
    return { nTested: this.finished.size, nLocations: this.nLocations, thresholds, lastUpdatedIndex: this.lastIndex };
  }

  /** The outcome of a finished test. */
  outcome(): PerimetryOutcome {
    if (!this.done) throw new Error("PerimetryTest.outcome: the test is still running");
    const n = this.geometry.points.length;
    const field = this.plan.complete(this.finished);
    const screening = [...this.slots.values()].some((s) => s.procedure.seen !== null);
    const seen = screening ? Array.from({ length: n }, (_, i) => this.slots.get(i)?.procedure.seen ?? null) : null;
    const seenCount = seen?.filter((s) => s === true).length ?? 0;
    const catchTrials: CatchTrials = {
      falsePositive: { ...this.tally.falsePositive },
      falseNegative: { ...this.tally.falseNegative },
      blindSpot: { ...this.tally.blindSpot },
    };
    return {
      thresholds: field.map((v) => Math.round(v)),
      tested: Array.from({ length: n }, (_, i) => this.finished.has(i)),
      seen,
      normalValues: this.geometry.points.map((p) => Math.round(hillOfVision(p, this.patient.age) * 10) / 10),
      presentationsPerLocation: Array.from({ length: n }, (_, i) => this.slots.get(i)?.procedure.presentations ?? 0),
      presentations: this.n,
      locationPresentations: this.locationN,
      durationMs: this.time,
      meanUpdateTimeMs: Math.round(this.updates.reduce((s, x) => s + x, 0) / Math.max(1, this.updates.length)),
      catchTrials,
      falsePositives: ratio(catchTrials.falsePositive),
      falseNegatives: ratio(catchTrials.falseNegative),
      fixationLosses: ratio(catchTrials.blindSpot),
      gazeTracking:
        (this.spec.trackGaze ?? true) ? { meanDistance: [...this.gazeSamples], fixationThreshold: FIXATION_THRESHOLD_DEG } : null,
      estermanScore: this.spec.pattern === Pattern.Esterman ? Math.round((100 * seenCount) / n) : null,
      maxIntensity: Math.round(MAX_INTENSITY_CD_M2 * 10) / 10,
    };
  }

  private fill(): void {
    while (this.active.length < this.plan.window && this.pending.length > 0) {
      const index = this.pending.shift()!;
      const slot: Slot = { index, procedure: this.plan.start(index, this.finished), lastResponseTime: null };
      this.active.push(slot);
      this.slots.set(index, slot);
    }
  }

  /** A random active location, not the one just shown when another is available. */
  private pickSlot(): Slot {
    const choices = this.active.length > 1 ? this.active.filter((s) => s.index !== this.lastIndex) : this.active;
    return choices[this.rng.int(choices.length)]!;
  }

  private pickCatchTrial(): CatchTrialKind | null {
    const u = this.rng.next();
    const { falsePositive, falseNegative, blindSpot } = this.rates;
    if (u < falsePositive) return "falsePositive";
    if (u < falsePositive + falseNegative) return this.seenLevels.size > 0 ? "falseNegative" : null;
    if (u < falsePositive + falseNegative + blindSpot) return this.geometry.binocular ? null : "blindSpot";
    return null;
  }

  private catchTrial(kind: CatchTrialKind, gaze: GazeSample): { index: number | null; level: number | null; response: Response } {
    const t = this.tally[kind];
    t.presentations++;
    if (kind === "falsePositive") {
      const response = this.patient.respondToNothing();
      if (response.seen) t.errors++;
      return { index: null, level: null, response };
    }
    if (kind === "blindSpot") {
      const response = this.patient.respondAtBlindSpot(BLIND_SPOT_CATCH_DB, gaze);
      if (response.seen) t.errors++;
      return { index: null, level: BLIND_SPOT_CATCH_DB, response };
    }
    const candidates = [...this.seenLevels.entries()];
    const [index, seenLevel] = candidates[this.rng.int(candidates.length)]!;
    const level = Math.max(0, seenLevel - FALSE_NEGATIVE_OFFSET_DB);
    const response = this.patient.respondAt(index, level, gaze);
    if (!response.seen) t.errors++;
    return { index, level, response };
  }
}

export interface NewTestOptions {
  readonly spec: PerimetryTestSpec;
  readonly profile: ProfileName;
  readonly seed: number | string;
  /** Seed of the patient's field, when the same patient sits several tests (default: derived from `seed`). */
  readonly patientSeed?: number | string;
  /** The patient's age in years (default: the profile's). */
  readonly age?: number;
  /** How a patient at home sits this test (home-behaviour.ts): misunderstood, or with the headset slipped. */
  readonly lapse?: ObserverLapse;
  readonly loadSors?: (pattern: Pattern) => SorsModel;
}

/** A seeded patient of the profile sitting the test: same seed, same patient and same responses. */
export const createPerimetryTest = (o: NewTestOptions): PerimetryTest => {
  const root = createRng(o.seed);
  const derivedPatientRng = root.fork();
  const testRng = root.fork();
  const profile = withLapse(o.age === undefined ? PROFILES[o.profile] : { ...PROFILES[o.profile], age: o.age }, o.lapse);
  const geometry = getPattern(o.spec.pattern);
  const patient =
    o.patientSeed === undefined
      ? createPatient(profile, { geometry, eye: o.spec.eye, rng: derivedPatientRng })
      : createPatient(profile, { geometry, eye: o.spec.eye, rng: createRng(o.patientSeed), responseRng: derivedPatientRng });
  return new PerimetryTest(o.spec, patient, testRng, o.loadSors);
};

/** Run a test to its end without a clock (device time is still counted). */
export const runToEnd = (test: PerimetryTest, onStep?: (s: StepOutcome) => void): PerimetryOutcome => {
  while (!test.done) {
    const s = test.step();
    onStep?.(s);
  }
  return test.outcome();
};
