// What the headset benches share (bench:headsets, bench:server-headsets, and any bench that holds many headsets against
// a server): growing a fleet in batches, asking the child process that plays the far end, protocol-level fake headsets
// that beat and stream against a clinic server, and a browser's live socket timing their progress.
import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { PROTOCOL_VERSION } from "../core/device/protocol.ts";
import { sleep } from "./figures.ts";

/** Sends `{ cmd }` to a child process and resolves with the `key` of the first message that carries it. */
export const askChild = <T>(child: ChildProcess, cmd: string, key: string): Promise<T> =>
  new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (key in m) {
        child.off("message", on);
        resolve(m[key] as T);
      }
    };
    child.on("message", on);
    child.send({ cmd });
  });

/**
 * Adds headsets from `from` up to `to` in batches, pausing after each batch so a step's ramp-up does not open thousands
 * of sockets in one tick. `add(i)` starts the i-th headset (0-based over the whole run). Returns `to`.
 */
export const growFleet = async (
  from: number,
  to: number,
  add: (index: number) => void,
  { batch, pauseMs }: { batch: number; pauseMs: number },
) => {
  for (let i = from; i < to; ) {
    const end = Math.min(to, i + batch);
    for (; i < end; i++) add(i);
    await sleep(pauseMs);
  }
  return to;
};

/** The locations of the test the streaming headsets play (24-2: 54, as a real headset's progress names them). */
const LOCATIONS = 54;

/**
 * The thresholds a real headset's progress frame carries after `tested` locations (simulator/headset/run.ts sends all
 * known so far in every frame, so a dropped frame loses nothing): the tested ones in the order a test visits them, each
 * with its dB value (null for a location never seen) and answer time. Deterministic per headset and location, so
 * every frame repeats the earlier ones' values as a real test does.
 */
export const cumulativeThresholds = (seed: number, tested: number) =>
  Array.from({ length: tested }, (_, k) => {
    const index = (k * 23 + seed) % LOCATIONS; // 23 is prime to 54: every location once per test
    const h = (index * 2654435761 + seed * 40503) >>> 0;
    return { index, dBValue: h % 17 === 0 ? null : 18 + (h % 16) + (h % 10) / 10, answerTime: h % 17 === 0 ? null : 350 + (h % 600) };
  });

/**
 * Headsets played with plain sockets speaking the device protocol against a clinic server (`url` its http address):
 * hello with a pairing code, a heartbeat a second, and for the streaming ones a progress frame every `progressMs`
 * (200: five a second, above a real headset's pace: bench:technician saw about 0.4 a second at speed 1), as
 * a real headset sends it: a 54-location test after another (a new measurement id each), every frame with the
 * cumulative thresholds so far. `sentAt` holds when each frame (`frameKey`) left, for `liveLatencies` to time (one
 * map may be shared by the fleets of several processes).
 */
export const protocolFleet = (
  url: string,
  {
    progressMs = 200,
    sentAt = new Map<string, number>(),
    reconnectMs,
  }: {
    progressMs?: number;
    /** null: frames are not timed (nobody here hears them). */
    sentAt?: Map<string, number> | null;
    /** A headset whose socket closed (refused, dropped) connects again after 1 to 2 times this, as real ones do;
     * without it, it stays away. Only with a device credential: a pairing code works once. */
    reconnectMs?: number;
  } = {},
) => {
  const sockets = new Set<WebSocket>();
  const battery = { vr: 90, clicker: 80, vrCharging: false, clickerCharging: false };
  let seeds = 0;
  let stopped = false;
  let reconnects = 0;
  /** `secret` is a one-time pairing code, or with `proof` "credential" the device credential it was enrolled with. */
  const connect = (sn: string, secret: string, streams: boolean, proof: "pairingCode" | "credential" = "pairingCode") => {
    const seed = seeds++;
    const open = () => {
      const ws = new WebSocket(`${url.replace(/^http/, "ws")}/device`);
      sockets.add(ws);
      const timers: NodeJS.Timeout[] = [];
      ws.on("open", () => {
        ws.send(JSON.stringify({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: sn, firmware: "bench", [proof]: secret }));
        // A heartbeat a second, spread over the second; the battery drains a point a minute.
        const beat = setInterval(
          () =>
            ws.readyState === ws.OPEN &&
            ws.send(JSON.stringify({ type: "heartbeat", battery: { ...battery, vr: 90 - (Math.floor(performance.now() / 60_000) % 50) } })),
          1000,
        );
        timers.push(beat);
        if (!streams) return;
        let frame = 0;
        timers.push(
          setInterval(() => {
            if (ws.readyState !== ws.OPEN) return;
            const test = Math.floor(frame / LOCATIONS);
            const nTested = (frame % LOCATIONS) + 1;
            frame++;
            const perimetryId = `bench-${sn}-${test}`;
            const thresholds = cumulativeThresholds(seed, nTested);
            sentAt?.set(frameKey(perimetryId, nTested), performance.now());
            ws.send(
              JSON.stringify({
                type: "progress",
                perimetryId,
                appointmentId: null,
                nTested,
                nLocations: LOCATIONS,
                thresholds,
                lastUpdatedIndex: thresholds.at(-1)!.index,
                gazeTracking: true,
              }),
            );
          }, progressMs),
        );
      });
      ws.on("error", () => undefined);
      ws.on("close", () => {
        for (const t of timers) clearInterval(t);
        sockets.delete(ws);
        if (stopped || reconnectMs === undefined || proof !== "credential") return;
        reconnects++;
        setTimeout(() => stopped || open(), reconnectMs * (1 + Math.random()));
      });
    };
    open();
  };
  const stop = () => {
    stopped = true;
    for (const s of sockets) s.terminate();
  };
  return { connect, sentAt, stop, reconnects: () => reconnects };
};

/** Which frame a progress event is: its measurement and how many locations it had tested. */
const frameKey = (perimetryId: string, nTested: number) => `${perimetryId}/${nTested}`;

/**
 * A logged-in browser's live socket on `url` timing each measurement_progress event against the moment its headset sent
 * the frame (`sentAt`, filled by `protocolFleet`). `take()` hands back the latencies gathered since the last take.
 */
export const liveLatencies = async (url: string, accessToken: string, sentAt: Map<string, number>) => {
  let latencies: number[] = [];
  const browser = new WebSocket(`${url.replace(/^http/, "ws")}/api/ws`);
  await new Promise((r) => browser.once("open", r));
  browser.send(JSON.stringify({ type: "logged_in", accessToken, message: "bench" }));
  browser.on("message", (d) => {
    const m = JSON.parse(d.toString()) as { operation?: string; data?: { perimetryId: string; nTested: number } };
    if (m.operation !== "measurement_progress" || !m.data) return;
    const key = frameKey(m.data.perimetryId, m.data.nTested);
    const t = sentAt.get(key);
    if (t !== undefined) {
      latencies.push(performance.now() - t);
      sentAt.delete(key);
    }
  });
  const take = () => {
    const taken = latencies;
    latencies = [];
    return taken;
  };
  return { take, close: () => browser.close() };
};
