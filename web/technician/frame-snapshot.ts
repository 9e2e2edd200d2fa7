import { useCallback, useRef, useSyncExternalStore } from "react";
import type { Client } from "../../core/client/client.ts";
import type { DeviceView } from "../../core/client/device-view.ts";
import type { ChangeTopic } from "../../core/client/events.ts";

// Live events reach the technician view one socket message at a time: about 70 a second with fifty headsets
// streaming. Its readers hear of them once per animation frame, so one render pass per frame applies every event that
// came meanwhile; and each reader renders only when what it reads changed (its own lane, the list's order and marks),
// so a streaming headset re-renders its lane and nothing else (bench:technician prints renders per lane).

const TOPICS: ReadonlySet<ChangeTopic> = new Set(["cache", "devices", "lanes", "marks", "socket", "commands"]);

interface FrameFanOut {
  readonly listeners: Set<() => void>;
  scheduled: boolean;
  stop(): void;
}
const fanOuts = new WeakMap<Client, FrameFanOut>();
/** The flushes waiting for their frame. */
const pending = new Set<() => void>();

const nextFrame = (run: () => void) => {
  if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && !document.hidden) requestAnimationFrame(run);
  else setTimeout(run, 16); // a hidden tab has no frames: its lanes still follow, at about the same pace
};

/** Calls `listener` at most once per animation frame while the client announces changes the lanes show. */
function subscribeEachFrame(client: Client, listener: () => void): () => void {
  let fanOut = fanOuts.get(client);
  if (!fanOut) {
    const created: FrameFanOut = {
      listeners: new Set(),
      scheduled: false,
      stop: () => client.events.off("change", onChange),
    };
    const flush = () => {
      if (!pending.delete(flush)) return; // already run by flushFramesNow
      created.scheduled = false;
      for (const l of [...created.listeners]) l();
    };
    const onChange = (topic: ChangeTopic) => {
      if (!TOPICS.has(topic) || created.scheduled) return;
      created.scheduled = true;
      pending.add(flush);
      nextFrame(flush);
    };
    client.events.on("change", onChange);
    fanOuts.set(client, (fanOut = created));
  }
  const shared = fanOut;
  shared.listeners.add(listener);
  return () => {
    shared.listeners.delete(listener);
    if (shared.listeners.size === 0) {
      shared.stop();
      fanOuts.delete(client);
    }
  };
}

/**
 * What `read` gives from the client, re-read once per animation frame after a change; the caller re-renders only when
 * `same` says it differs from what it last rendered (the previous value is kept, so its identity holds).
 */
export function useFrameSnapshot<T>(client: Client, read: () => T, same: (a: T, b: T) => boolean = Object.is): T {
  const last = useRef<{ value: T } | null>(null);
  const readRef = useRef(read);
  readRef.current = read;
  const sameRef = useRef(same);
  sameRef.current = same;
  const subscribe = useCallback((onStoreChange: () => void) => subscribeEachFrame(client, onStoreChange), [client]);
  const snapshot = () => {
    const next = readRef.current();
    if (last.current !== null && sameRef.current(last.current.value, next)) return last.current.value;
    last.current = { value: next };
    return next;
  };
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Runs the updates waiting for the next frame now: component tests drive live events one at a time and look at once. */
export function flushFramesNow(): void {
  for (const flush of [...pending]) flush();
}

/** What a lane shows of its device's view (the client builds a fresh view object on every read). */
export const sameView = (a: DeviceView | undefined, b: DeviceView | undefined) =>
  a === b || (a !== undefined && b !== undefined &&
    a.device === b.device && a.status === b.status && a.connection === b.connection && a.liveProgress === b.liveProgress &&
    a.gazeCalibration === b.gazeCalibration && a.runningId === b.runningId);

/** One headset's view, re-rendering the caller only when what a lane shows of it changed. */
export const useDeviceView = (client: Client, deviceSn: string) => useFrameSnapshot(client, () => client.devices.one(deviceSn), sameView);
