import { afterEach, expect, it, vi } from "vitest";
import type { ServerContext } from "../../simulator/server/context.ts";
import { silenceCheckMs, watchSilence } from "../../simulator/server/device/silence-watch.ts";

// "No heartbeat for 4 s marks it disconnected" (scheduling §4): every headset socket's silence is looked for by one
// sweep of its process, a quarter of the silence allowed apart (at most a second), not by a timer per socket.

const ctxWith = (deviceSilenceMs: number) => ({ settings: { deviceSilenceMs } }) as unknown as ServerContext;

afterEach(() => void vi.useRealTimers());

it("looks every second for the 4 s rule, a quarter of a shorter silence, never more often than every 50 ms", () => {
  expect(silenceCheckMs(4_000)).toBe(1_000);
  expect(silenceCheckMs(400)).toBe(100);
  expect(silenceCheckMs(100)).toBe(50);
});

it("one timer checks every socket of a process, and stops when the last socket has closed", () => {
  vi.useFakeTimers();
  const ctx = ctxWith(4_000);
  const checked: string[] = [];
  const unwatchA = watchSilence(ctx, () => checked.push("A"));
  const unwatchB = watchSilence(ctx, () => checked.push("B"));
  expect(vi.getTimerCount()).toBe(1);
  vi.advanceTimersByTime(1_000);
  expect(checked).toEqual(["A", "B"]);
  unwatchA();
  vi.advanceTimersByTime(1_000);
  expect(checked).toEqual(["A", "B", "B"]);
  unwatchB();
  expect(vi.getTimerCount()).toBe(0);
  // A socket opened after the last one closed gets the sweep again.
  const unwatchC = watchSilence(ctx, () => checked.push("C"));
  vi.advanceTimersByTime(1_000);
  expect(checked.at(-1)).toBe("C");
  unwatchC();
});

it("each server in a process (tests run several) has a sweep of its own, at its own pace", () => {
  vi.useFakeTimers();
  const fast: number[] = [];
  const slow: number[] = [];
  const unwatchFast = watchSilence(ctxWith(200), () => fast.push(1));
  const unwatchSlow = watchSilence(ctxWith(4_000), () => slow.push(1));
  vi.advanceTimersByTime(1_000);
  expect(fast).toHaveLength(20);
  expect(slow).toHaveLength(1);
  unwatchFast();
  unwatchSlow();
  expect(vi.getTimerCount()).toBe(0);
});
