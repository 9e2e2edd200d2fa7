// Faults a virtual headset can suffer, on demand (VirtualHeadset methods) or at random at these rates (per hour of real
// time). All rates default to 0: a fleet misbehaves only when asked to.

export interface FaultRates {
  /** Network drops (the headset reconnects every second, as a real one). */
  readonly disconnectsPerHour: number;
  /** How long a random disconnection lasts, ms (uniform in the range). */
  readonly disconnectMs: readonly [number, number];
  /** Share of outgoing frames lost (hello excepted). */
  readonly dropRate: number;
  /** Clicker drops out during a test: the test stops with the clicker-disconnected message. */
  readonly clickerPerHour: number;
  /** The headset battery dies. */
  readonly batteryEmptyPerHour: number;
  /** The patient stops pressing for a while. */
  readonly unresponsivePerHour: number;
}

export const NO_FAULTS: FaultRates = {
  disconnectsPerHour: 0,
  disconnectMs: [2_000, 20_000],
  dropRate: 0,
  clickerPerHour: 0,
  batteryEmptyPerHour: 0,
  unresponsivePerHour: 0,
};

/** A lively demo: every headset hiccups now and then. */
export const DEMO_FAULTS: FaultRates = {
  disconnectsPerHour: 2,
  disconnectMs: [2_000, 15_000],
  dropRate: 0.01,
  clickerPerHour: 0.5,
  batteryEmptyPerHour: 0.1,
  unresponsivePerHour: 0.5,
};
