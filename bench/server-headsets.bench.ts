// npm run bench:server-headsets: what one clinic server process holds (issue 18): headsets beating every second, 100 of
// them streaming live progress; per step the headsets device/all shows connected, live threshold latency from the
// headset's frame to a browser's live socket (p50/p99), device/all time, and the server's event-loop delay. Prints,
// never asserts; each line carries the load average (the machine is shared).
//
// The server runs alone in a child process (PGlite in memory, the demo clinic with the step's headsets enrolled by
// pairing codes); this process plays the headsets with plain sockets speaking the device protocol (hello, a heartbeat
// a second, progress frames five times a second from the testing ones) and the browser (one logged-in live socket).
// Environment: STEPS (default 500,1000,2000), WINDOW_S seconds measured per step (default 10), TESTING (default 100).
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { PROTOCOL_VERSION } from "../core/device/protocol.ts";

const password = "Bench-Pass-1";
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`;
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the server (child process) ------------------------------------------------------------------------------------

const runServer = async (headsets: number) => {
  const { startServer } = await import("../simulator/server/server.ts");
  const { seedDemo, ensureDevices } = await import("../simulator/server/demo/seed.ts");
  const { pairingCodesFor } = await import("../simulator/server/device/enrolment.ts");
  const server = await startServer({ storage: { kind: "pglite", dataDir: undefined }, port: 0, webRoot: "/nonexistent" });
  await seedDemo(server.db, { password, headsets: 0, results: "fixtures" });
  const serials = await ensureDevices(server.db, headsets);
  const codes = await pairingCodesFor(server.ctx, serials);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  process.on("message", (m: { cmd: string }) => {
    if (m.cmd === "reset") {
      loop.reset();
      loop.enable();
      process.send!({ reset: true });
    } else if (m.cmd === "loop") process.send!({ loop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 } });
    else if (m.cmd === "exit") void server.close().then(() => process.exit(0));
  });
  process.send!({ url: server.url, codes: [...codes] });
};

// ---- headsets and a browser (this process) -------------------------------------------------------------------------

const main = async () => {
  const steps = (process.env.STEPS ?? "500,1000,2000").split(",").map(Number);
  const windowS = Number(process.env.WINDOW_S ?? 10);
  const testing = Number(process.env.TESTING ?? 100);
  const child = fork(fileURLToPath(import.meta.url), ["--server", String(Math.max(...steps))], { execArgv: ["--import", "tsx"] });
  const ask = <T>(cmd: string, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (key in m) {
          child.off("message", on);
          resolve(m[key] as T);
        }
      };
      child.on("message", on);
      child.send({ cmd });
    });
  const { url, codes } = await new Promise<{ url: string; codes: Array<[string, string]> }>((resolve) => child.once("message", resolve as never));
  const login = await fetch(`${url}/api/login`, { method: "POST", body: JSON.stringify({ username: "manager", password }) });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;

  // The browser: progress events are timed against the moment the headset sent the frame.
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  const browser = new WebSocket(`${url.replace(/^http/, "ws")}/api/ws`);
  await new Promise((r) => browser.once("open", r));
  browser.send(JSON.stringify({ type: "logged_in", accessToken: token, message: "bench" }));
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

  const timers: NodeJS.Timeout[] = [];
  const sockets: WebSocket[] = [];
  const battery = { vr: 90, clicker: 80, vrCharging: false, clickerCharging: false };
  const connect = (sn: string, pairingCode: string, streams: boolean) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/device`);
    sockets.push(ws);
    ws.on("open", () => {
      ws.send(JSON.stringify({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: sn, firmware: "bench", pairingCode }));
      // A heartbeat a second, spread over the second; the battery drains a point a minute.
      const beat = setInterval(() => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ type: "heartbeat", battery: { ...battery, vr: 90 - Math.floor(performance.now() / 60_000) % 50 } })), 1000);
      timers.push(beat);
      if (!streams) return;
      let n = 0;
      const measurementId = `bench-${sn}`;
      timers.push(
        setInterval(() => {
          if (ws.readyState !== ws.OPEN) return;
          n++;
          sentAt.set(`${sn}/${n}`, performance.now());
          ws.send(JSON.stringify({ type: "progress", measurementId, nTested: n, nLocations: 54, thresholds: [], lastUpdatedIndex: null, gazeTracking: null }));
        }, 200),
      );
    });
    ws.on("error", () => undefined);
  };

  console.log(`Clinic server with headsets beating every second, ${testing} streaming progress 5 times a second; ${windowS} s measured per step (${load()})`);
  console.log("headsets | connected (device/all) | progress to browser p50 / p99 | device/all | server loop delay p99 / max | load average");
  let started = 0;
  for (const n of steps) {
    for (; started < n; started++) {
      const [sn, code] = codes[started]!;
      connect(sn, code, started < testing);
      if (started % 50 === 49) await sleep(100);
    }
    await sleep(5_000);
    await ask("reset", "reset");
    latencies = [];
    await sleep(windowS * 1000);
    const window = [...latencies].sort((a, b) => a - b); // frames keep arriving while device/all is timed
    const times: number[] = [];
    let connected = 0;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const r = await fetch(`${url}/api/device/all`, { headers: { authorization: `Bearer ${token}` } });
      const list = ((await r.json()) as { data: Array<{ connection: string }> }).data;
      times.push(performance.now() - t);
      connected = list.filter((d) => d.connection === "CONNECTED").length;
    }
    const loop = await ask<{ p99: number; max: number }>("loop", "loop");
    console.log(
      [
        n,
        connected,
        `${percentile(window, 50).toFixed(1)} / ${percentile(window, 99).toFixed(1)} ms (${window.length} frames)`,
        `${times.sort((a, b) => a - b)[1]!.toFixed(0)} ms`,
        `${loop.p99.toFixed(0)} / ${loop.max.toFixed(0)} ms`,
        load(),
      ].join(" | "),
    );
  }
  console.log("Aims (issue 18): >= 2,000 headsets held; live threshold p99 <= 50 ms; device/all <= 100 ms at 1,000 headsets.");
  for (const t of timers) clearInterval(t);
  for (const s of sockets) s.terminate();
  browser.close();
  child.send({ cmd: "exit" });
};

if (process.argv.includes("--server")) void runServer(Number(process.argv.at(-1)));
else void main();
