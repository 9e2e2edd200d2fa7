import { type Rng, createRng } from "../perimetry/random.ts";

// A simulated home's network, as the fault proxy plays it: what is wrong with it now (delays, a stall, a cut) and the
// random faults it suffers at given rates, each a Poisson process per hour of real time (the proxy forwards real TCP
// bytes, so its faults run on real time). Seeded per home: the same seed and home draw the same faults.

export interface NetworkFaultRates {
  /** Spells during which every chunk is delayed DELAY_MS (order kept), and how long a spell lasts, ms. */
  readonly delaySpellsPerHour: number;
  readonly delaySpellMs: readonly [number, number];
  /** Forwarding paused both ways (bytes held, then released), and for how long, ms. */
  readonly stallsPerHour: number;
  readonly stallMs: readonly [number, number];
  /** The home's link cut: its connections dropped, new ones refused or blackholed until the cut ends. */
  readonly cutsPerHour: number;
  readonly cutMs: readonly [number, number];
  /** Share of cuts that refuse new connections at once (the rest blackhole them: accepted, never answered). */
  readonly refuseShare: number;
  /** The home's open connections turn half-open: both sides kept open, nothing forwarded, nothing closed. */
  readonly halfOpensPerHour: number;
  /** Share of complete client-to-server data frames written twice. */
  readonly repeatRate: number;
}

/** Every chunk's delay while a home's network is delaying, ms (uniform; issue 31 §4: 100-400 ms). */
export const DELAY_MS: readonly [number, number] = [100, 400];

/** A quiet network: faults come only when asked for. The ranges are the (cuts 30 s to 10 min). */
export const NO_NETWORK_FAULTS: NetworkFaultRates = {
  delaySpellsPerHour: 0,
  delaySpellMs: [30_000, 300_000],
  stallsPerHour: 0,
  stallMs: [1_000, 10_000],
  cutsPerHour: 0,
  cutMs: [30_000, 600_000],
  refuseShare: 0.5,
  halfOpensPerHour: 0,
  repeatRate: 0,
};

export type CutHow = "refuse" | "blackhole";
export type RandomNetworkFault = "delay" | "stall" | "cut" | "halfOpen";

const HOUR_MS = 3_600_000;

export class HomeNetworkState {
  /** Until when (clock ms) chunks are delayed, stalled, and the link cut. */
  delayUntil = 0;
  stallUntil = 0;
  cutUntil = 0;
  cutHow: CutHow = "refuse";
  /** Frames still to repeat on demand. */
  repeatNext = 0;
  readonly rng: Rng;
  private readonly timers = new Map<RandomNetworkFault, ReturnType<typeof setTimeout>>();

  constructor(
    readonly homeId: string,
    seed: string,
    private readonly now: () => number,
  ) {
    this.rng = createRng(`network/${seed}/${homeId}`);
  }

  delayMs(): number {
    return this.now() < this.delayUntil ? this.rng.uniform(DELAY_MS[0], DELAY_MS[1]) : 0;
  }

  get cut(): boolean {
    return this.now() < this.cutUntil;
  }

  /** Whether the next whole data frame from the headset is written twice. */
  repeats(rate: number): boolean {
    if (this.repeatNext > 0) {
      this.repeatNext--;
      return true;
    }
    return rate > 0 && this.rng.chance(rate);
  }

  /** Arms each random fault with a rate above 0; `fire` plays it. */
  schedule(rates: () => NetworkFaultRates, fire: (kind: RandomNetworkFault, r: NetworkFaultRates) => void): void {
    const rateOf = (r: NetworkFaultRates, kind: RandomNetworkFault) =>
      kind === "delay" ? r.delaySpellsPerHour : kind === "stall" ? r.stallsPerHour : kind === "cut" ? r.cutsPerHour : r.halfOpensPerHour;
    const arm = (kind: RandomNetworkFault) => {
      const rate = rateOf(rates(), kind);
      if (!(rate > 0)) return;
      const t = setTimeout(
        () => {
          fire(kind, rates());
          arm(kind);
        },
        (-Math.log(1 - this.rng.next()) * HOUR_MS) / rate,
      );
      t.unref?.();
      this.timers.set(kind, t);
    };
    this.unschedule();
    for (const kind of ["delay", "stall", "cut", "halfOpen"] as const) arm(kind);
  }

  unschedule(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Every fault ends now (random ones stay armed unless unscheduled). */
  heal(): void {
    this.delayUntil = 0;
    this.stallUntil = 0;
    this.cutUntil = 0;
    this.repeatNext = 0;
  }
}
