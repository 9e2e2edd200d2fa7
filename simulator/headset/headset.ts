import mitt, { type Emitter } from "mitt";
import { Result } from "effect";
import type { Clock } from "../../core/ports.ts";
import { DEVICE_HEARTBEAT_INTERVAL_MS } from "../../core/device/connection.ts";
import {
  type CommandKind,
  type HeadsetMessage,
  type HomeSetting,
  PROTOCOL_VERSION,
  type QueueItem,
  type ServerMessage,
  type TestConfig,
  frame,
  readServerFrame,
} from "../../core/device/protocol.ts";
import { isCommandAllowed } from "../../core/device/status.ts";
import { DeviceStatus } from "../../core/model/enums.ts";
import type { PerimetryTest } from "../perimetry/engine.ts";
import type { ProfileName } from "../perimetry/profiles.ts";
import { type Rng, createRng } from "../perimetry/random.ts";
import { BatteryModel } from "./battery.ts";
import { type FaultKind, scheduleFaults } from "./fault-schedule.ts";
import { type FaultRates, NO_FAULTS } from "./faults.ts";
import { Outbox, RETRY_MS } from "./outbox.ts";
import { ageAt, profileForPatient } from "./patients.ts";
import { type RunContext, type RunPlan, TestRun, type UploadMessage } from "./run.ts";
import { END_HOLD_MS } from "./sequence.ts";
import { guardedClock } from "./guarded-clock.ts";
import { NamedTimers } from "./timers.ts";
import type { Connector } from "./transport.ts";
import { Uplink } from "./uplink.ts";
import type { HomeBehaviour } from "../perimetry/home-behaviour.ts";
import { HomeSessions, type SessionEnd } from "./home-sessions.ts";

// A virtual headset. It connects to the server's device socket with its serial number and its device credential, or
// the one-time pairing code it exchanges for one (hello; `enrolled` brings the credential, kept for every later hello),
// beats every second
// (DEVICE_HEARTBEAT_INTERVAL_MS: well inside the 4 s disconnect rule) with both batteries, reports its status, obeys
// start / pause / resume / stop with acks, runs the leftmost queue item or repeats its stand-alone measurement, streams
// progress and uploads every result until the server has it. Everything runs on the injected Clock; test time (steps,
// stimuli, battery use) goes `speed` times faster than the clock, the heartbeat and reconnection do not. setSpeed changes
// the speed while it runs, mid-test too: each timer of test time reads the speed as it is scheduled, so the next step,
// stimulus or wait uses the new speed. The running test's preparation or examination step under way is retimed to the
// device time it has left; a perimetry stimulus cycle under way and the waits between tests (end hold, stand-alone
// gap, autopilot, recharge) end at the pace they began with.

type S = DeviceStatus;

/** What a headset proves itself with: its device credential, or a pairing code to exchange for one. */
export type HeadsetKey = { readonly credential: string } | { readonly pairingCode: string };

export interface HeadsetOptions {
  readonly deviceSn: string;
  /** The device credential it was enrolled with; or else */
  readonly credential?: string;
  /** the pairing code a manager issued, exchanged in the first hello for a credential. One of the two is required. */
  readonly pairingCode?: string;
  /** The route it was last given (a welcome's, kept like the credential); it learns its own from the next welcome. */
  readonly route?: string;
  readonly connector: Connector;
  readonly clock: Clock;
  /** Device time per clock time (10: a test takes a tenth as long). Default 1. */
  readonly speed?: number;
  readonly seed?: number | string;
  /** Every patient is of this profile (default: each patient id maps to a profile of a clinic's mix, patients.ts). */
  readonly profile?: ProfileName;
  /** Random fault rates (per hour of clock time); default none. */
  readonly faults?: Partial<FaultRates>;
  readonly battery?: { vr?: number; clicker?: number; vrCharging?: boolean };
  /** Someone in the room: queued items start by themselves, a silent-patient pause is resumed. Default false. */
  readonly autopilot?: boolean;
  /** Default DEVICE_HEARTBEAT_INTERVAL_MS (1 s). */
  readonly heartbeatMs?: number;
  /** Reconnect attempt interval (seeds: reconnect every 1 s). */
  readonly reconnectMs?: number;
  /** Device time between stand-alone repetitions (the next patient sits down). Default 30 s. */
  readonly standaloneGapMs?: number;
  readonly firmware?: string;
  /** A home patient (issue 31 §4): each stand-alone repetition is a session they may skip, stop midway, misunderstand
   * or sit with the headset slipped, at these rates (seeded by the headset's seed). Default: none of that. */
  readonly homeBehaviour?: HomeBehaviour;
  readonly log?: (line: string) => void;
  /** An exception in one of the headset's timers: by default it is logged, the running test is dropped and the headset
   * carries on (a fleet runs inside the server's process and must not take it down). Tests may rethrow. */
  readonly onError?: (e: unknown) => void;
}

export type HeadsetEvents = {
  status: S;
  connection: boolean;
  sent: HeadsetMessage;
  dropped: HeadsetMessage;
  received: ServerMessage;
  fault: FaultKind;
  /** The server gave a credential for the pairing code (a real headset keeps it in its key store). */
  enrolled: string;
  upload: UploadMessage;
  /** A home session ended: skipped, stopped midway or done (only with homeBehaviour). */
  session: SessionEnd;
  error: unknown;
};

/** How many made results a headset remembers for inspection (a demo fleet runs for days). */
const PRODUCED_KEPT = 1_000;
/** Device time before an autopilot starts the next queued item or resumes a silent-patient pause. */
const AUTOPILOT_START_MS = 20_000;
const AUTOPILOT_RESUME_MS = 15_000;
/** Back off after the server refuses the headset (unknown serial or revoked: a manager may enrol it meanwhile). */
const REFUSED_RETRY_MS = 30_000;
/** Clock time between battery updates. */
const BATTERY_TICK_MS = 1_000;
/** Staff dock a headset between tests below this level (ours). */
const DOCK_BELOW = 15;
/** Device time a dead headset stays off on the dock before it switches on again, charging. */
export const RECHARGE_OFF_MS = 5 * 60_000;

const checkedSpeed = (who: string, speed: number): number => {
  if (typeof speed !== "number" || !Number.isFinite(speed) || !(speed > 0))
    throw new Error(`${who}: speed must be a finite number above 0 (device time per clock time), got ${String(speed)}`);
  return speed;
};

export class VirtualHeadset {
  readonly deviceSn: string;
  readonly events: Emitter<HeadsetEvents> = mitt<HeadsetEvents>();
  readonly battery: BatteryModel;
  readonly outbox = new Outbox();
  status: S = DeviceStatus.Standby;
  queue: readonly QueueItem[] = [];
  standalone: { readonly standaloneId: string; readonly config: TestConfig; readonly home?: HomeSetting } | null = null;
  /** Results made, in order (tests compare them with what the server stored); the latest PRODUCED_KEPT only. */
  readonly produced: UploadMessage[] = [];
  private producedCount = 0;
  /** Random fault rates; may be changed while running (the next random wait uses the new rates). */
  faults: FaultRates;

  private readonly clock: Clock;
  private speedNow: number;
  /** Device time at clock time `clockAt` (moved on at every speed change), for deviceTime(). */
  private deviceAt = 0;
  private clockAt: number;
  private readonly rng: Rng;
  private readonly faultRng: Rng;
  private readonly seed: string;
  private readonly boot: string;
  private readonly timers: NamedTimers;
  private readonly uplink: Uplink;
  private welcomed = false;
  private credentialNow: string | undefined;
  private routeNow: string | undefined;
  /** Welcomed, and the server has not yet sent its stand-alone setting on this connection. It may have been switched off
   * while we were away, so no new repetition starts until it says (offline, the last setting holds). */
  private settingAwaited = false;
  private alias: string | null = null;
  private serverOffset = 0;
  private powered = false;
  private closed = false;
  private dropNextN = 0;
  private unresponsive = false;
  private run: TestRun | null = null;
  private runs = 0;
  private cancelFaults: (() => void) | null = null;
  /** The home patient's sessions, with homeBehaviour. */
  readonly home: HomeSessions | null;

  constructor(private readonly o: HeadsetOptions) {
    this.deviceSn = o.deviceSn;
    if (o.credential === undefined && o.pairingCode === undefined)
      throw new Error(`VirtualHeadset ${o.deviceSn}: give its credential or a pairing code`);
    this.credentialNow = o.credential;
    this.routeNow = o.route;
    this.clock = guardedClock(o.clock, (e) => this.crashed(e));
    this.speedNow = checkedSpeed("VirtualHeadset", o.speed ?? 1);
    this.clockAt = this.clock.now();
    this.seed = String(o.seed ?? o.deviceSn);
    const root = createRng(`headset/${this.seed}`);
    this.rng = root.fork();
    this.faultRng = root.fork();
    this.battery = new BatteryModel(root.fork(), o.battery);
    const homeRng = root.fork(); // forked after the others, so their draws are as without it
    this.home = o.homeBehaviour ? new HomeSessions(o.homeBehaviour, homeRng) : null;
    this.boot = `${Math.floor(this.clock.now()).toString(36)}${this.rng.int(2 ** 30).toString(36)}`;
    this.faults = { ...NO_FAULTS, ...o.faults };
    this.timers = new NamedTimers(this.clock);
    this.uplink = new Uplink(o.connector, this.clock, this.timers, o.reconnectMs ?? 1_000, {
      opened: () =>
        this.sendNow({
          type: "hello",
          protocolVersion: PROTOCOL_VERSION,
          deviceSn: this.deviceSn,
          firmware: o.firmware ?? "isopter-sim-1",
          ...(this.credentialNow !== undefined ? { credential: this.credentialNow } : { pairingCode: o.pairingCode! }),
        }),
      message: (text) => this.receive(text),
      closed: () => this.lost(),
      route: () => this.routeNow,
    });
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------------------

  /** Switch on: connect, beat, run. */
  start(): this {
    this.closed = false;
    this.powerOn();
    return this;
  }

  /** Switch off for good (no reconnection); pending results stay in the outbox. */
  close(): void {
    this.closed = true;
    this.powered = false;
    this.run?.abandon();
    this.run = null;
    this.clearAll();
    this.uplink.disable("close");
  }

  /** Same as close(). */
  stop(): void {
    this.close();
  }

  /** The device credential once it has one (given, or from exchanging the pairing code). */
  get credential(): string | undefined {
    return this.credentialNow;
  }

  /** Its organisation as the last welcome named it: the route parameter of its next connections. */
  get route(): string | undefined {
    return this.routeNow;
  }

  /** What it would prove itself with now (the same headset switched on again keeps it). */
  get key(): HeadsetKey {
    return this.credentialNow !== undefined ? { credential: this.credentialNow } : { pairingCode: this.o.pairingCode! };
  }

  /** Device time per clock time now. */
  get speed(): number {
    return this.speedNow;
  }

  /** Change the speed now, also in the middle of a test (which goes on, neither lost nor restarted): test time runs
   * `speed` times faster than the clock from the next stimulus on; the test's step under way keeps the device time it
   * had left. A stimulus cycle or a wait between tests already scheduled ends at the old pace. */
  setSpeed(speed: number): void {
    const next = checkedSpeed("VirtualHeadset.setSpeed", speed);
    this.deviceAt = this.deviceTime();
    this.clockAt = this.clock.now();
    this.speedNow = next;
    this.run?.speedChanged();
  }

  /** How many results this headset has made (each eye of a run, each examination). */
  get resultsProduced(): number {
    return this.producedCount;
  }

  /** Results not yet confirmed stored by the server. */
  get pendingResults(): number {
    return this.outbox.size;
  }

  get connected(): boolean {
    return this.welcomed;
  }

  get isPowered(): boolean {
    return this.powered;
  }

  /** The running test, for inspection. */
  get running(): TestRun | null {
    return this.run;
  }

  // ---- faults on demand ------------------------------------------------------------------------------------------

  /** Network lost for `ms` of clock time (abnormal close), then reconnection every reconnectMs. */
  disconnect(ms: number): void {
    this.events.emit("fault", "disconnect");
    this.uplink.cut(ms);
  }

  /** The next `n` outgoing frames are lost (hello excepted). */
  dropMessages(n: number): void {
    this.events.emit("fault", "drop");
    this.dropNextN += n;
  }

  /** The clicker drops out for `ms` of clock time: a running test stops (clickerDisconnected, then status stopped). */
  clickerDisconnect(ms = 30_000): void {
    this.events.emit("fault", "clicker");
    this.battery.clickerConnected = false;
    if (this.run) {
      this.send({
        type: "clickerDisconnected",
        ...(this.run.currentIds ?? { perimetryId: null, appointmentId: null, examinationId: null }),
      });
      this.run.stop();
    }
    this.later("clicker", ms, () => {
      this.battery.clickerConnected = true;
    });
  }

  /** The headset battery is empty: it dies at once (abnormal close) and the running test is lost; someone docks it and
   * after `offMs` of clock time (default RECHARGE_OFF_MS of device time) it is back on, charging. */
  batteryEmpty(offMs?: number): void {
    this.events.emit("fault", "battery");
    this.battery.vr = 0;
    this.powerOff(offMs);
  }

  /** The patient stops pressing (a test pauses after a long silent run): `true` until called with `false`, or a number
   * of device-time ms. */
  patientStopsResponding(on: boolean | number = 60_000): void {
    if (on !== false) this.events.emit("fault", "unresponsive");
    this.cancel("unresponsive");
    this.unresponsive = on !== false;
    this.run?.setUnresponsive(this.unresponsive);
    if (typeof on === "number")
      this.later("unresponsive", on / this.speedNow, () => {
        this.unresponsive = false;
        this.run?.setUnresponsive(false);
      });
  }

  /** The running test's engine (perimetry), for inspection. */
  get currentTest(): PerimetryTest | null {
    return this.run?.currentTest ?? null;
  }

  // ---- power and connection ----------------------------------------------------------------------------------------

  private powerOn(): void {
    if (this.closed) return;
    this.powered = true;
    // A power cycle pairs the clicker again and (in the simulation) ends a silent-patient fault.
    this.battery.clickerConnected = true;
    this.unresponsive = false;
    this.setStatus(this.hasWork() ? DeviceStatus.AwaitMeasurement : DeviceStatus.Standby);
    this.timers.every("battery", BATTERY_TICK_MS, () => this.batteryTick());
    this.cancelFaults?.();
    this.cancelFaults = scheduleFaults(
      this.clock,
      this.faultRng,
      () => this.faults,
      (kind) => this.randomFault(kind),
    );
    this.uplink.enable();
    this.idle();
  }

  private powerOff(offMs = RECHARGE_OFF_MS / this.speedNow): void {
    this.powered = false;
    this.run?.abandon();
    this.run = null;
    this.clearAll();
    this.uplink.disable("drop");
    this.status = DeviceStatus.NotConnected;
    this.events.emit("status", this.status);
    // Straight onto the dock; it charges while off and comes back on when it has some charge.
    this.battery.vrCharging = true;
    const offAt = this.deviceTime();
    this.later("recharge", offMs, () => {
      this.battery.tick(this.deviceTime() - offAt, false);
      this.powerOn();
    });
  }

  /** The link is gone (or going): no heartbeats until the next welcome. */
  private lost(): void {
    const was = this.welcomed;
    this.welcomed = false;
    this.settingAwaited = false;
    this.cancel("heartbeat");
    this.cancel("retry");
    if (was) this.events.emit("connection", false);
  }

  private receive(text: string): void {
    const decoded = readServerFrame(text);
    if (Result.isFailure(decoded)) return this.log(`ignored a malformed frame: ${decoded.failure.message}`);
    const m = decoded.success;
    this.events.emit("received", m);
    switch (m.type) {
      case "welcome":
        this.welcomed = true;
        this.settingAwaited = true;
        this.alias = m.alias;
        if (m.route !== undefined) this.routeNow = m.route;
        this.serverOffset = m.serverTime - this.clock.now();
        this.sendStatus();
        this.heartbeat();
        this.timers.every("heartbeat", this.o.heartbeatMs ?? DEVICE_HEARTBEAT_INTERVAL_MS, () => this.heartbeat());
        this.flushOutbox(0);
        this.timers.every("retry", RETRY_MS, () => this.flushOutbox(RETRY_MS));
        this.events.emit("connection", true);
        return;
      case "enrolled":
        this.credentialNow = m.credential;
        this.events.emit("enrolled", m.credential);
        return;
      case "refused":
        this.log(`refused (${m.reason}): ${m.message}`);
        return this.uplink.backOff(REFUSED_RETRY_MS);
      case "command":
        return this.command(m.commandId, m.kind);
      case "queue":
        this.queue = m.items;
        this.outbox.settleByQueue(m.items);
        if (!this.run && (this.status === DeviceStatus.Standby || this.status === DeviceStatus.AwaitMeasurement)) this.idle();
        return;
      case "standalone":
        this.standalone =
          m.standaloneId && m.config ? { standaloneId: m.standaloneId, config: m.config, ...(m.home ? { home: m.home } : {}) } : null;
        this.settingAwaited = false;
        if (!this.run && (this.status === DeviceStatus.Standby || this.status === DeviceStatus.AwaitMeasurement)) this.idle();
        return;
      case "resultAccepted":
        this.outbox.accepted(m.resultId);
        return;
    }
  }

  // ---- sending -----------------------------------------------------------------------------------------------------

  private send(m: HeadsetMessage): void {
    if (!this.welcomed) return;
    if (this.dropNextN > 0 || (this.faults.dropRate > 0 && this.faultRng.chance(this.faults.dropRate))) {
      if (this.dropNextN > 0) this.dropNextN--;
      this.events.emit("dropped", m);
      return;
    }
    this.sendNow(m);
  }

  private sendNow(m: HeadsetMessage): void {
    if (this.uplink.send(frame(m))) this.events.emit("sent", m);
  }

  private heartbeat(): void {
    this.send({ type: "heartbeat", battery: this.battery.snapshot() });
  }

  private sendStatus(): void {
    this.send({ type: "status", status: this.status, gazeCalibration: this.run?.gazeCalibration ?? null });
  }

  private setStatus(s: S): void {
    this.status = s;
    this.events.emit("status", s);
    this.sendStatus();
  }

  private flushOutbox(retryMs: number): void {
    if (!this.welcomed) return;
    for (const m of this.outbox.due(this.clock.now(), retryMs)) this.send(m);
  }

  // ---- commands and runs -------------------------------------------------------------------------------------------

  private command(commandId: string, kind: CommandKind): void {
    const ack = (ok: boolean, error?: string) => this.send({ type: "ack", commandId, ok, ...(error ? { error } : {}) });
    if (!isCommandAllowed(kind, this.status)) return ack(false, `${kind} is not possible while ${this.status}`);
    switch (kind) {
      case "start":
        if (this.run) return this.run.skipTutorial() ? ack(true) : ack(false, "a test is running");
        return this.startNext() ? ack(true) : ack(false, "nothing to run: the queue is empty");
      case "pause":
        return ack(this.run?.pause() ?? false);
      case "resume":
        return ack(this.run?.resume() ?? false);
      case "stop":
        if (this.run) this.run.stop();
        else {
          this.cancel("idle");
          this.setStatus(DeviceStatus.Stopped);
          this.hold();
        }
        return ack(true);
    }
  }

  private hasWork(): boolean {
    return this.standalone !== null || this.queue.length > 0;
  }

  private nextPlan(): RunPlan | null {
    if (this.standalone && this.settingAwaited) return null;
    if (!this.standalone) return this.queue[0] ?? null;
    const { standaloneId, config, home } = this.standalone;
    // A home patient bound to a programme sits its next session (compressed in time: home-sessions.ts).
    const session =
      this.home && home ? this.home.nextSession(home, config, new Date(this.clock.now() + this.serverOffset).toISOString()) : null;
    if (this.home && home && !session) return null; // nothing due now (home-sessions.ts)
    // A repeat of one eye of a two-eye programme tests that eye alone.
    const eye = session?.eyes?.length === 1 ? session.eyes[0]! : config.eye;
    return {
      kind: "standalone",
      standaloneId,
      config: eye === config.eye ? config : { ...config, eye },
      resultId: `${this.deviceSn}:${this.boot}:${++this.runs}`,
      ...(this.home ? { lapse: this.home.draw() } : {}),
      ...(session ? { takenAt: session.takenAt } : {}),
    };
  }

  /** Start the stand-alone measurement or the leftmost queue item; false when there is none. */
  private startNext(): boolean {
    if (!this.powered || this.run) return false;
    const plan = this.nextPlan();
    if (!plan) {
      // A home programme with nothing due yet: look again after the gap (a session opens, a repeat is asked for).
      if (this.home && this.standalone?.home && !this.settingAwaited) this.idle();
      return false;
    }
    const lapse = plan.kind === "standalone" ? plan.lapse : undefined;
    if (lapse?.skipped) {
      // The patient does not test this time; the headset waits for the next session.
      this.home?.ended("skipped");
      this.events.emit("session", "skipped");
      this.idle();
      return false;
    }
    this.cancel("idle");
    if (this.status !== DeviceStatus.AwaitMeasurement) this.setStatus(DeviceStatus.AwaitMeasurement);
    const run: TestRun = new TestRun(plan, this.runContext(), {
      status: (s) => {
        if (this.run === run) this.setStatus(s);
        if (lapse && (s === DeviceStatus.Stopped || s === DeviceStatus.Finished)) {
          const how = s === DeviceStatus.Stopped ? "stopped" : "done";
          this.home?.ended(how);
          this.events.emit("session", how);
        }
        if (s === DeviceStatus.Stopped && this.run === run) {
          this.run = null;
          this.hold();
        }
      },
      progress: (p) => {
        this.send(p);
        // The home patient takes the headset off midway (deferred: the engine schedules its next cycle after this).
        if (HomeSessions.stopsNow(lapse, p.nTested, p.nLocations))
          this.later("lapse", 0, () => {
            if (this.run !== run) return;
            this.log("the patient stopped midway: test stopped");
            run.stop();
          });
      },
      upload: (m) => {
        this.producedCount++;
        this.produced.push(m);
        if (this.produced.length > PRODUCED_KEPT) this.produced.shift();
        this.outbox.add(m);
        this.events.emit("upload", m);
        if (this.welcomed) {
          this.outbox.sent(m, this.clock.now());
          this.send(m);
        }
      },
      patientSilent: () => {
        if (this.run !== run || !run.pause()) return;
        this.log("the patient stopped responding: test paused");
        // Someone in the room resumes it: the autopilot's staff, or at home the patient (no one else is there).
        if (this.o.autopilot || this.home)
          this.later("resume", AUTOPILOT_RESUME_MS / this.speedNow, () => this.run === run && run.resume());
      },
      finished: () => {
        if (this.run === run) this.run = null;
        this.hold();
      },
      failed: (message) => this.log(message),
    });
    this.run = run;
    if (this.unresponsive) run.setUnresponsive(true);
    run.begin();
    return true;
  }

  /** Show stopped or finished for a moment, then wait for the next test. */
  private hold(): void {
    this.later("idle", END_HOLD_MS / this.speedNow, () => {
      if (!this.hasWork() && this.battery.vr < DOCK_BELOW) this.battery.vrCharging = true;
      this.idle();
    });
  }

  /** Between tests: awaitmeasurement with something to run, else standby; repeat stand-alone, or autopilot. */
  private idle(): void {
    if (!this.powered || this.run) return;
    this.cancel("idle");
    const s = this.hasWork() ? DeviceStatus.AwaitMeasurement : DeviceStatus.Standby;
    if (s !== this.status) this.setStatus(s);
    if (this.standalone) {
      if (!this.settingAwaited) this.later("idle", (this.o.standaloneGapMs ?? 30_000) / this.speedNow, () => this.startNext());
    } else if (this.o.autopilot && this.queue.length > 0) this.later("idle", AUTOPILOT_START_MS / this.speedNow, () => this.startNext());
  }

  private runContext(): RunContext {
    return {
      clock: this.clock,
      speed: () => this.speedNow,
      rng: this.rng,
      deviceSn: this.deviceSn,
      seed: this.seed,
      alias: () => this.alias,
      now: () => this.clock.now() + this.serverOffset,
      profileFor: (patientId) => this.o.profile ?? profileForPatient(patientId),
      ageFor: (birthdate) => ageAt(birthdate, this.clock.now() + this.serverOffset) ?? undefined,
    };
  }

  // ---- battery and random faults -----------------------------------------------------------------------------------

  /** Device time elapsed since the headset was made (it moves at each speed in turn). */
  private deviceTime(): number {
    return this.deviceAt + (this.clock.now() - this.clockAt) * this.speedNow;
  }

  /** Every BATTERY_TICK_MS of clock time; the tick counts at the speed of its end (a change shows from the next). */
  private batteryTick(): void {
    this.battery.tick(BATTERY_TICK_MS * this.speedNow, this.run !== null);
    if (!this.run && this.battery.vr < DOCK_BELOW) this.battery.vrCharging = true;
    if (this.battery.empty) {
      this.log("battery empty");
      this.events.emit("fault", "battery");
      this.powerOff();
    }
  }

  private randomFault(kind: FaultKind): void {
    if (!this.powered) return;
    switch (kind) {
      case "disconnect": {
        const [lo, hi] = this.faults.disconnectMs;
        return this.disconnect(this.faultRng.uniform(lo, hi));
      }
      case "clicker":
        return this.run ? this.clickerDisconnect() : undefined;
      case "battery":
        return this.batteryEmpty();
      case "unresponsive":
        return this.run ? this.patientStopsResponding() : undefined;
      case "drop":
        return;
    }
  }

  // ---- timers ------------------------------------------------------------------------------------------------------

  private later(name: string, ms: number, fn: () => void): void {
    this.timers.later(name, ms, fn);
  }

  private cancel(name: string): void {
    this.timers.cancel(name);
  }

  private clearAll(): void {
    this.timers.cancelAll();
    this.cancelFaults?.();
    this.cancelFaults = null;
  }

  private crashed(e: unknown): void {
    this.events.emit("error", e);
    if (this.o.onError) return this.o.onError(e);
    this.log(`error, test dropped: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    const run = this.run;
    this.run = null;
    run?.abandon();
    if (run && this.powered) {
      this.setStatus(DeviceStatus.Stopped);
      this.hold();
    }
  }

  private log(line: string): void {
    this.o.log?.(`[headset ${this.deviceSn}] ${line}`);
  }
}
