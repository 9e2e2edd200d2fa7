// npm run bench:headsets: how many virtual headsets one process sustains, each beating every second (1 s heartbeat,
// DEVICE_HEARTBEAT_INTERVAL_MS) and streaming live progress from a running test, without missing a heartbeat deadline
// (the 4 s disconnect rule: no heartbeat for 4 s marks a device disconnected). Prints, never asserts.
//
// The headsets run in this process on the system clock over real ws sockets; the far end is a light device-socket sink
// in a child process (welcome, a stand-alone measurement so every headset repeats a test and streams progress,
// resultAccepted), so the figures are the headset process's and not the clinic server's (its own bench is
// bench:server). The sink times every headset's heartbeats on arrival: the deadline is missed when two arrive more than
// 4 s apart. Steps add headsets until one misses, or the last step.
//
// Environment: STEPS (default 500,1000,2000,4000,6000), WINDOW_S seconds measured per step (default 15), SPEED test
// speed factor (default 1: streaming at a real device's pace).
import { spawn } from "node:child_process";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { WebSocketServer, type WebSocket } from "ws";
import { systemClock } from "../adapters/clock/system-clock.ts";
import { DEVICE_DISCONNECT_TIMEOUT_MS, DEVICE_HEARTBEAT_INTERVAL_MS } from "../core/device/connection.ts";
import { PROTOCOL_VERSION, type TestConfig } from "../core/device/protocol.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../core/model/enums.ts";
import { VirtualHeadset } from "../simulator/headset/headset.ts";
import { wsConnector } from "../simulator/headset/ws-connector.ts";
import { askChild as ask, growFleet } from "./fleet.ts";
import { loadAverage, sleep } from "./figures.ts";

const config: TestConfig = {
  patientId: "bench-patient",
  patientBirthdate: "1960-01-01",
  displayName: "Bench",
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.Normal,
  sorsStage: null,
  stimuliUpdate: StimuliUpdate.Adaptive,
  stimuliSize: StimulusSize.III,
  stimuliShowtime: Showtime.Ms200,
  playSound: false,
  trackGaze: false,
  audioGuide: false,
  tutorial: false,
};

interface SinkStats {
  connected: number;
  heartbeats: number;
  progress: number;
  otherFrames: number;
  bytes: number;
  /** Largest gap between two heartbeats of one headset within the window, ms. */
  maxGapMs: number;
  /** Gaps over the 4 s deadline. */
  missed: number;
  /** Gaps over 1.5 heartbeat intervals (late but within the deadline). */
  late: number;
}

// ---- the sink (child process) --------------------------------------------------------------------------------------

const runSink = () => {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/device" });
  const last = new Map<WebSocket, number>();
  let stats: SinkStats = { connected: 0, heartbeats: 0, progress: 0, otherFrames: 0, bytes: 0, maxGapMs: 0, missed: 0, late: 0 };
  let windowStart = performance.now();
  wss.on("connection", (socket) => {
    socket.on("message", (data) => {
      const text = data.toString();
      stats.bytes += text.length;
      const m = JSON.parse(text) as { type: string; deviceSn?: string; resultId?: string };
      if (m.type === "heartbeat") {
        const now = performance.now();
        const prev = last.get(socket);
        // A gap that began before this window counts from the window's start (the step's ramp-up is not measured).
        if (prev !== undefined) {
          const gap = now - Math.max(prev, windowStart);
          stats.maxGapMs = Math.max(stats.maxGapMs, gap);
          if (gap > DEVICE_DISCONNECT_TIMEOUT_MS) stats.missed++;
          else if (gap > 1.5 * DEVICE_HEARTBEAT_INTERVAL_MS) stats.late++;
        }
        last.set(socket, now);
        stats.heartbeats++;
      } else if (m.type === "progress") stats.progress++;
      else {
        stats.otherFrames++;
        if (m.type === "hello") {
          socket.send(
            JSON.stringify({
              type: "welcome",
              protocolVersion: PROTOCOL_VERSION,
              deviceSn: m.deviceSn,
              alias: null,
              serverTime: Date.now(),
            }),
          );
          socket.send(JSON.stringify({ type: "queue", items: [] }));
          socket.send(JSON.stringify({ type: "standalone", standaloneId: "bench", config }));
        } else if (m.type === "standaloneResult") socket.send(JSON.stringify({ type: "resultAccepted", resultId: m.resultId }));
      }
    });
    socket.on("close", () => last.delete(socket));
  });
  wss.on("listening", () => process.send!({ port: (wss.address() as { port: number }).port }));
  process.on("message", (msg: { cmd: string }) => {
    if (msg.cmd === "reset") {
      stats = { connected: 0, heartbeats: 0, progress: 0, otherFrames: 0, bytes: 0, maxGapMs: 0, missed: 0, late: 0 };
      windowStart = performance.now();
      process.send!({ reset: true });
    } else if (msg.cmd === "stats") {
      // Headsets silent since the window began count as missed too.
      const now = performance.now();
      for (const t of last.values()) if (now - Math.max(t, windowStart) > DEVICE_DISCONNECT_TIMEOUT_MS) stats.missed++;
      process.send!({ stats: { ...stats, connected: last.size } });
    } else if (msg.cmd === "count") process.send!({ count: last.size });
    else if (msg.cmd === "exit") process.exit(0);
  });
};

// ---- the headsets (this process) -----------------------------------------------------------------------------------

const main = async () => {
  const steps = (process.env.STEPS ?? "500,1000,2000,4000,6000").split(",").map(Number);
  const windowS = Number(process.env.WINDOW_S ?? 15);
  const speed = Number(process.env.SPEED ?? 1);
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--sink"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)));
  const url = `ws://127.0.0.1:${port}/device`;
  const connector = wsConnector(url);
  const headsets: VirtualHeadset[] = [];
  console.log(
    `Virtual headsets: heartbeat every ${DEVICE_HEARTBEAT_INTERVAL_MS} ms, deadline ${DEVICE_DISCONNECT_TIMEOUT_MS} ms; each repeats a 24-2 Normal test in stand-alone mode at speed ${speed}, streaming progress; ${windowS} s measured per step; 2-core machine shared with other work.`,
  );
  console.log(
    "headsets | connected | heartbeats/s | progress/s | KB/s in | max beat gap | late (>1.5 s) | missed (>4 s) | loop delay p99 / max | CPU (one core) | load average",
  );
  let sustained = 0;
  for (const n of steps) {
    await growFleet(
      headsets.length,
      n,
      (i) => {
        const sn = `VR-BENCH-${String(i + 1).padStart(5, "0")}`;
        // Different seeds spread the headsets over the test's phases.
        headsets.push(
          new VirtualHeadset({
            deviceSn: sn,
            credential: "isd1.bench",
            clock: systemClock,
            connector,
            speed,
            seed: sn,
            standaloneGapMs: 1_000,
            battery: { vr: 100, clicker: 100, vrCharging: true },
          }).start(),
        );
      },
      { batch: 100, pauseMs: 200 },
    );
    const deadline = Date.now() + 30_000;
    while ((await ask<number>(child, "count", "count")) < n && Date.now() < deadline) await sleep(250);
    await sleep(10_000); // let the ramp-up settle and the new headsets' tests reach playing (countdown, first click)
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await ask(child, "reset", "reset");
    await sleep(windowS * 1000);
    const s = await ask<SinkStats>(child, "stats", "stats");
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    loop.disable();
    const ms = (ns: number) => `${(ns / 1e6).toFixed(0)} ms`;
    console.log(
      [
        n,
        s.connected,
        (s.heartbeats / wall).toFixed(0),
        (s.progress / wall).toFixed(0),
        (s.bytes / 1024 / wall).toFixed(0),
        `${(s.maxGapMs / 1000).toFixed(2)} s`,
        s.late,
        s.missed,
        `${ms(loop.percentile(99))} / ${ms(loop.max)}`,
        `${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(0)} %`,
        loadAverage(),
      ].join(" | "),
    );
    if (s.missed > 0 || s.connected < n) break;
    sustained = n;
  }
  console.log(
    `Sustained without a missed heartbeat deadline: ${sustained} headsets${sustained === steps.at(-1) ? " (the largest step tried)" : ""}.`,
  );
  for (const h of headsets) h.stop();
  child.send({ cmd: "exit" });
  await sleep(200);
  process.exit(0);
};

if (process.argv.includes("--sink")) runSink();
else void main();
