import { describe, expect, it } from "vitest";
import { createVirtualClock, systemClock } from "../../adapters/clock/index.ts";

describe("virtual clock", () => {
  it("fires timeouts and intervals in time order as time advances", () => {
    const clock = createVirtualClock(1000);
    const log: string[] = [];
    clock.setTimeout(() => log.push(`t5@${clock.now()}`), 5);
    const every = clock.setInterval(() => log.push(`i3@${clock.now()}`), 3);
    clock.advance(7);
    expect(log).toEqual(["i3@1003", "t5@1005", "i3@1006"]);
    expect(clock.now()).toBe(1007);
    clock.clearInterval(every);
    clock.advance(100);
    expect(log).toHaveLength(3);
    expect(clock.pending()).toBe(0);
  });

  it("runs timers scheduled by timers within the same advance", () => {
    const clock = createVirtualClock();
    const log: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => log.push(clock.now()), 2), 2);
    clock.advance(4);
    expect(log).toEqual([4]);
  });

  it("cleared timeouts never fire", () => {
    const clock = createVirtualClock();
    let fired = false;
    const id = clock.setTimeout(() => (fired = true), 1);
    clock.clearTimeout(id);
    clock.advance(10);
    expect(fired).toBe(false);
  });

  it("the system clock reads real time", () => {
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1000);
    const id = systemClock.setTimeout(() => {}, 10_000);
    systemClock.clearTimeout(id);
  });
});
