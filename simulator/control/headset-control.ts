import { systemClock } from "../../adapters/clock/system-clock.ts";
import type { HeadsetFault, SimulatedHeadset, SimulatedProfile } from "../../adapters/http/simulator-control.ts";
import type { Clock } from "../../core/ports.ts";
import {
  type Connector,
  type FaultRates,
  type Fleet,
  type HeadsetKey,
  VirtualHeadset,
  deviceConnector,
  faultsFromEnv,
} from "../headset/index.ts";
import { RECHARGE_OFF_MS } from "../headset/headset.ts";
import { type HeadsetControl, type HeadsetSettings, type HeadsetTarget, UnknownHeadset } from "./port.ts";

// The running headsets under control: those npm start began with (adopted from startHeadsets' fleet) and those added
// later, each with its own speed and patient profile. A new speed applies at once (VirtualHeadset.setSpeed), busy or
// idle: a running test goes on from its next step at the new pace, nothing restarts. A VirtualHeadset takes its patient
// profile at construction, so a new profile restarts the headset with it and its current speed (a power cycle: it says
// hello again, keeps its battery). A running test or a result not yet stored would be lost by that, so a busy headset
// gets the new profile when it is next idle.

/** Clock seconds a fault lasts when not told (disconnect: a Wi-Fi drop; the rest are the headset's own defaults). */
export const DEFAULT_DISCONNECT_SECONDS = 10;
const DEFAULT_CLICKER_SECONDS = 30;
/** Device time the patient stays silent by default (the headset's own default). */
const DEFAULT_SILENT_DEVICE_SECONDS = 60;

interface Entry {
  headset: VirtualHeadset;
  profile: SimulatedProfile | null;
  /** A profile change waiting for the headset to be idle (speed: its current one, which the restart keeps). */
  pending: { speed: number; profile: SimulatedProfile | null } | null;
  unwatch: (() => void) | null;
}

export interface HeadsetControlOptions {
  /** The speed of headsets added without one (the start command's SPEED). */
  readonly speed: number;
  readonly clock?: Clock;
  /** Random fault rates of every headset (default from ISOPTER_HEADSET_FAULTS, as startHeadsets). */
  readonly faults?: FaultRates;
  readonly log?: (line: string) => void;
  /** Tests give an in-memory connector; default deviceConnector(the attached addresses) once attached. */
  readonly connector?: Connector;
}

export interface AttachableHeadsetControl extends HeadsetControl {
  /** Start controlling: headsets connect to `deviceUrl` (the server's /device socket, or several processes' sockets:
   * added headsets spread over them); `fleet` headsets are adopted. */
  attach(deviceUrl: string | readonly string[], fleet?: Fleet): void;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export const headsetControl = (o: HeadsetControlOptions): AttachableHeadsetControl => {
  const clock = o.clock ?? systemClock;
  const log = o.log ?? ((line: string) => console.log(line));
  const faults = o.faults ?? faultsFromEnv(process.env.ISOPTER_HEADSET_FAULTS);
  let urls: string | readonly string[] | null = null;
  let launched = 0;
  /** Each launch its own connector: with several addresses, headsets start at the next one in turn. */
  const connector = (): Connector | null => o.connector ?? (urls === null ? null : deviceConnector(urls, launched++));
  let stopped = false;
  const entries = new Map<string, Entry>();

  const view = (deviceSn: string, e: Entry): SimulatedHeadset => {
    const h = e.headset;
    return {
      deviceSn,
      connected: h.connected,
      powered: h.isPowered,
      status: h.status,
      speed: h.speed,
      profile: e.profile,
      testing: h.running !== null,
      battery: { vr: round1(h.battery.vr), clicker: round1(h.battery.clicker), vrCharging: h.battery.vrCharging },
      resultsProduced: h.resultsProduced,
      pendingResults: h.pendingResults,
      pendingSettings: e.pending,
    };
  };

  const entryOf = (deviceSn: string): Entry => {
    const e = entries.get(deviceSn);
    if (!e) throw new UnknownHeadset(deviceSn);
    return e;
  };

  const launch = (
    deviceSn: string,
    key: HeadsetKey,
    speed: number,
    profile: SimulatedProfile | null,
    battery?: VirtualHeadset["battery"],
    route?: string,
  ) => {
    const link = connector();
    if (!link) throw new Error("the headsets are not attached to a server yet");
    return new VirtualHeadset({
      deviceSn,
      ...key,
      ...(route !== undefined ? { route } : {}),
      connector: link,
      clock,
      speed,
      faults,
      ...(profile ? { profile } : {}),
      ...(battery ? { battery: { vr: battery.vr, clicker: battery.clicker, vrCharging: battery.vrCharging } } : {}),
      log,
    }).start();
  };

  /** Idle enough to restart without losing anything: on, no test, every result stored. */
  const idle = (h: VirtualHeadset) => h.isPowered && h.running === null && h.pendingResults === 0;

  const restart = (deviceSn: string, e: Entry) => {
    const next = e.pending!;
    e.unwatch?.();
    e.unwatch = null;
    e.pending = null;
    const old = e.headset;
    old.stop();
    e.headset = launch(deviceSn, old.key, old.speed, next.profile, old.battery, old.route); // the same headset: it keeps its credential and route
    e.profile = next.profile;
    log(`[simulator] ${deviceSn} restarted with speed ${old.speed}, patients ${next.profile ?? "of the clinic mix"}`);
  };

  /** A new speed, at once: a running test carries on at it from its next step. */
  const setSpeed = (deviceSn: string, e: Entry, speed: number) => {
    if (speed === e.headset.speed) return;
    e.headset.setSpeed(speed);
    if (e.pending) e.pending = { ...e.pending, speed };
    log(`[simulator] ${deviceSn} speed ${speed}${e.headset.running ? " (its running test goes on at it)" : ""}`);
  };

  /** Restart when idle: now, or on the first event after which the headset is (checked a moment later, outside the
   * headset's own handler, when it has finished handling what it received). */
  const whenIdle = (deviceSn: string, e: Entry) => {
    if (idle(e.headset)) return restart(deviceSn, e);
    if (e.unwatch) return;
    const h = e.headset;
    let timer: ReturnType<Clock["setTimeout"]> | null = null;
    const check = () => {
      if (timer !== null) return;
      timer = clock.setTimeout(() => {
        timer = null;
        if (entries.get(deviceSn) === e && e.headset === h && e.pending && idle(h)) restart(deviceSn, e);
      }, 0);
    };
    h.events.on("status", check);
    h.events.on("received", check);
    e.unwatch = () => {
      h.events.off("status", check);
      h.events.off("received", check);
      if (timer !== null) clock.clearTimeout(timer);
    };
  };

  return {
    get ready() {
      return (o.connector !== undefined || urls !== null) && !stopped;
    },

    attach(deviceUrl, fleet) {
      urls ??= deviceUrl;
      launched = fleet?.headsets.length ?? 0;
      for (const h of fleet?.headsets ?? []) entries.set(h.deviceSn, { headset: h, profile: null, pending: null, unwatch: null });
    },

    list: () => [...entries].map(([sn, e]) => view(sn, e)).sort((a, b) => a.deviceSn.localeCompare(b.deviceSn)),

    has: (deviceSn) => entries.has(deviceSn),

    add(headsets, settings) {
      const speed = settings.speed ?? o.speed;
      const profile = settings.profile ?? null;
      return headsets.map(({ deviceSn: sn, pairingCode }) => {
        if (entries.has(sn)) throw new Error(`a simulated headset ${sn} is already running`);
        const e: Entry = { headset: launch(sn, { pairingCode }, speed, profile), profile, pending: null, unwatch: null };
        entries.set(sn, e);
        log(`[simulator] ${sn} added (speed ${speed}, patients ${profile ?? "of the clinic mix"})`);
        return view(sn, e);
      });
    },

    remove(deviceSn) {
      const e = entryOf(deviceSn);
      const before = view(deviceSn, e);
      e.unwatch?.();
      e.headset.stop();
      entries.delete(deviceSn);
      log(`[simulator] ${deviceSn} removed`);
      return before;
    },

    fault(deviceSn, fault: HeadsetFault, seconds) {
      const e = entryOf(deviceSn);
      const h = e.headset;
      switch (fault) {
        case "disconnect": {
          const s = seconds ?? DEFAULT_DISCONNECT_SECONDS;
          h.disconnect(s * 1000);
          return { seconds: s };
        }
        case "battery-empty": {
          const s = seconds ?? RECHARGE_OFF_MS / 1000 / h.speed;
          h.batteryEmpty(s * 1000);
          return { seconds: s };
        }
        case "clicker-lost": {
          const s = seconds ?? DEFAULT_CLICKER_SECONDS;
          h.clickerDisconnect(s * 1000);
          return { seconds: s };
        }
        case "stop-responding": {
          // The headset counts the silence in device time.
          const s = seconds ?? DEFAULT_SILENT_DEVICE_SECONDS / h.speed;
          h.patientStopsResponding(s * 1000 * h.speed);
          return { seconds: s };
        }
      }
    },

    configure(target: HeadsetTarget, settings: HeadsetSettings) {
      const chosen = "all" in target ? [...entries] : [[target.deviceSn, entryOf(target.deviceSn)] as const];
      return chosen.map(([sn, e]) => {
        if (settings.speed !== undefined) setSpeed(sn, e, settings.speed);
        if (settings.profile !== undefined) {
          if (settings.profile === e.profile) {
            // Back to the profile it runs with: nothing to wait for.
            e.unwatch?.();
            e.unwatch = null;
            e.pending = null;
          } else {
            e.pending = { speed: e.headset.speed, profile: settings.profile };
            whenIdle(sn, e);
          }
        }
        return view(sn, e);
      });
    },

    async stop() {
      stopped = true;
      for (const e of entries.values()) {
        e.unwatch?.();
        e.headset.stop();
      }
    },
  };
};
