import type { Client } from "../../core/client/client.ts";
import type { ChangeTopic } from "../../core/client/events.ts";

// Live events reach the technician view one socket message at a time: about 70 a second with fifty headsets
// streaming. A reader at the "frame" pace of `useClientState` hears of them once per animation frame, so one render
// pass per frame applies every event that came meanwhile (bench:technician prints renders per lane).

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
export function subscribeEachFrame(client: Client, listener: () => void): () => void {
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

/** Runs the updates waiting for the next frame now: component tests drive live events one at a time and look at once. */
export function flushFramesNow(): void {
  for (const flush of [...pending]) flush();
}
