import { createVirtualClock, type VirtualClock } from "../../adapters/clock/virtual-clock.ts";

// Simulated time for headsets that talk to the real server in-process. The headsets run on a VirtualClock; the server,
// its database and the sockets run on real time. Time moves only inside `run`, in small steps with a real pause between
// them so the server's work and the socket frames go on; everywhere else it stands still, so a test can ask the server
// something while the headset is held in a known state (between two stand-alone runs, say), whatever the machine's load.
// A slow machine makes simulated time move more slowly; it never makes a headset run ahead of a check.

/** Simulated ms per step: below every headset interval that matters (heartbeat 1 s, reconnect 1 s). */
const STEP_MS = 25;
/** Real pause between steps (a timer, so socket and database callbacks run in between). */
const YIELD_MS = 1;
/** Real time a frozen wait gives the server (generous: a shared 2-core machine under load). */
const SETTLE_MS = 60_000;
const POLL_MS = 20;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TimePump {
  readonly clock: VirtualClock;

  constructor(start = Date.now()) {
    this.clock = createVirtualClock(start);
  }

  /** Let simulated time run until `done` holds; fail after `withinMs` of simulated time. */
  async run(what: string, done: () => boolean, withinMs: number): Promise<void> {
    const end = this.clock.now() + withinMs;
    while (!done()) {
      if (this.clock.now() >= end) throw new Error(`${what}: not within ${withinMs} ms of simulated time`);
      this.clock.advance(STEP_MS);
      await pause(YIELD_MS);
    }
  }

  /** Let `ms` of simulated time pass. */
  async pass(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    await this.run(`${ms} ms`, () => this.clock.now() >= end, ms + STEP_MS);
  }

  /** Time stands still until `done` holds (the server catches up with what the headset already sent or was sent). */
  async settle(what: string, done: () => boolean | Promise<boolean>, realMs = SETTLE_MS): Promise<void> {
    const end = Date.now() + realMs;
    while (!(await done())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what} (simulated time stood still)`);
      await pause(POLL_MS);
    }
  }
}
