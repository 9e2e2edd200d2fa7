import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { periodicTask, type TaskState } from "../../simulator/server/periodic.ts";

// The server's own periodic tasks (mail delivery, the missed-session sweep, the worklist query) run through one helper:
// one pass at a time, a failure logged and tried again next time, a stop that waits for the pass under way.

/** A pass that stays under way until `finish` is called. */
const controlled = () => {
  const passes: Array<{ resolve: (n: number) => void; reject: (e: Error) => void }> = [];
  const states: TaskState[] = [];
  const pass = (state: TaskState) =>
    new Promise<number>((resolve, reject) => {
      states.push(state);
      passes.push({ resolve, reject });
    });
  return {
    pass,
    started: () => states.length,
    /** Ends the oldest pass still under way. */
    finish: (n: number) => passes.shift()!.resolve(n),
    fail: (e: Error) => passes.shift()!.reject(e),
    states,
  };
};

describe("a periodic task", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("never runs two passes at once: a pass asked while one is under way joins it", async () => {
    const c = controlled();
    const task = periodicTask({ everyMs: 1_000, atStart: true, pass: c.pass, failed: () => undefined });
    expect(c.started()).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    const joined = task.run();
    expect(c.started()).toBe(1);
    c.finish(7);
    expect(await joined).toBe(7);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(c.started()).toBe(2);
    c.finish(0);
    await task.stop();
  });

  it("logs a failed pass and runs the next one on time", async () => {
    const c = controlled();
    const failed: unknown[] = [];
    const task = periodicTask({ everyMs: 1_000, atStart: false, pass: c.pass, failed: (e) => failed.push(e) });
    await vi.advanceTimersByTimeAsync(1_000);
    const first = task.run();
    c.fail(new Error("provider down"));
    expect(await first).toBeUndefined();
    expect(failed).toEqual([new Error("provider down")]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(c.started()).toBe(2);
    c.finish(1);
    await task.stop();
  });

  it("stop clears the timer and waits for the pass under way, which sees it stopped; a failure then is not news", async () => {
    const c = controlled();
    const failed: unknown[] = [];
    const task = periodicTask({ everyMs: 1_000, atStart: true, pass: c.pass, failed: (e) => failed.push(e) });
    let stopped = false;
    const stopping = task.stop().then(() => void (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    expect(c.states[0]!.stopped).toBe(true);
    c.fail(new Error("cut off by the shutdown"));
    await stopping;
    expect(stopped).toBe(true);
    expect(failed).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(c.started()).toBe(1);
  });

  it("without a period it runs only when asked, and not at start", async () => {
    const c = controlled();
    const task = periodicTask({ everyMs: 0, atStart: true, pass: c.pass, failed: () => undefined });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(c.started()).toBe(0);
    const once = task.run();
    c.finish(3);
    expect(await once).toBe(3);
    await task.stop();
  });
});
