import type { Battery } from "../../core/device/protocol.ts";
import type { Rng } from "../perimetry/random.ts";

// Battery of the headset (VR) and of its clicker. Levels in percent; simulated time in ms (already scaled by speed).
// Our figures: the headset lasts about 3 h testing and 8 h idle, the clicker weeks; a dock charges 1 % a minute.

export const DRAIN_PER_MIN = { vrTesting: 0.55, vrIdle: 0.2, clicker: 0.01 } as const;
export const CHARGE_PER_MIN = 1;

export class BatteryModel {
  vr: number;
  clicker: number;
  vrCharging: boolean;
  clickerCharging = false;
  clickerConnected = true;

  constructor(rng: Rng, start?: { vr?: number; clicker?: number; vrCharging?: boolean }) {
    this.vr = start?.vr ?? Math.round(rng.uniform(35, 100));
    this.clicker = start?.clicker ?? Math.round(rng.uniform(40, 100));
    this.vrCharging = start?.vrCharging ?? false;
  }

  /** Advance by `ms` of simulated time. */
  tick(ms: number, testing: boolean): void {
    const min = ms / 60_000;
    this.vr = this.vrCharging
      ? Math.min(100, this.vr + CHARGE_PER_MIN * min)
      : Math.max(0, this.vr - (testing ? DRAIN_PER_MIN.vrTesting : DRAIN_PER_MIN.vrIdle) * min);
    if (this.vrCharging && this.vr >= 100) this.vrCharging = false; // leaves the dock full
    if (this.clickerConnected)
      this.clicker = this.clickerCharging
        ? Math.min(100, this.clicker + CHARGE_PER_MIN * min)
        : Math.max(0, this.clicker - DRAIN_PER_MIN.clicker * min);
  }

  get empty(): boolean {
    return this.vr <= 0;
  }

  /** What a heartbeat carries: whole percent; the clicker reads null while disconnected. */
  snapshot(): Battery {
    return {
      vr: Math.round(this.vr),
      clicker: this.clickerConnected ? Math.round(this.clicker) : null,
      vrCharging: this.vrCharging,
      clickerCharging: this.clickerConnected && this.clickerCharging,
    };
  }
}
