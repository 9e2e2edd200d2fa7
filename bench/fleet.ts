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

/**
 * Headsets played with plain sockets speaking the device protocol against a clinic server (`url` its http address):
 * hello with a pairing code, a heartbeat a second, and for the streaming ones a progress frame five times a second.
 * `sentAt` holds when each frame (`${serial}/${nTested}`) left, for `liveLatencies` to time.
 */
export const protocolFleet = (url: string) => {
  const sentAt = new Map<string, number>();
  const timers: NodeJS.Timeout[] = [];
  const sockets: WebSocket[] = [];
  const battery = { vr: 90, clicker: 80, vrCharging: false, clickerCharging: false };
  const connect = (sn: string, pairingCode: string, streams: boolean) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/device`);
    sockets.push(ws);
    ws.on("open", () => {
      ws.send(JSON.stringify({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: sn, firmware: "bench", pairingCode }));
      // A heartbeat a second, spread over the second; the battery drains a point a minute.
      const beat = setInterval(
        () =>
          ws.readyState === ws.OPEN &&
          ws.send(JSON.stringify({ type: "heartbeat", battery: { ...battery, vr: 90 - (Math.floor(performance.now() / 60_000) % 50) } })),
        1000,
      );
      timers.push(beat);
      if (!streams) return;
      let n = 0;
      const measurementId = `bench-${sn}`;
      timers.push(
        setInterval(() => {
          if (ws.readyState !== ws.OPEN) return;
          n++;
          sentAt.set(`${sn}/${n}`, performance.now());
          ws.send(
            JSON.stringify({
              type: "progress",
              perimetryId: measurementId,
              appointmentId: null,
              nTested: n,
              nLocations: 54,
              thresholds: [],
              lastUpdatedIndex: null,
              gazeTracking: null,
            }),
          );
        }, 200),
      );
    });
    ws.on("error", () => undefined);
  };
  const stop = () => {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.terminate();
  };
  return { connect, sentAt, stop };
};

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
    const m = JSON.parse(d.toString()) as { operation?: string; data?: { deviceSn: string; nTested: number } };
    if (m.operation !== "measurement_progress" || !m.data) return;
    const key = `${m.data.deviceSn}/${m.data.nTested}`;
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
