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
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { askChild, growFleet, liveLatencies, protocolFleet } from "./fleet.ts";
import { loadAverage, percentile, sleep } from "./figures.ts";

const password = "Bench-Pass-1";
const load = () => `load average ${loadAverage()}`;

// ---- the server (child process) ------------------------------------------------------------------------------------

const runServer = async () => {
  const { startServer } = await import("../simulator/server/server.ts");
  const { seedDemo, ensureDevices } = await import("../simulator/server/demo/seed.ts");
  const { pairingCodesFor } = await import("../simulator/server/device/enrolment.ts");
  const server = await startServer({ storage: { kind: "pglite", dataDir: undefined }, port: 0, webRoot: "/nonexistent" });
  await seedDemo(server.db, { password, headsets: 0, results: "fixtures" });
  // The clinic owns only the headsets the step plays (device/all lists every enrolled one): each step enrols its new
  // serials and sends their pairing codes.
  let enrolled = 0;
  const enrol = async (count: number) => {
    const serials = (await ensureDevices(server.db, count)).slice(enrolled);
    enrolled = Math.max(enrolled, count);
    return [...(await pairingCodesFor(server.ctx, serials))];
  };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  process.on("message", (m: { cmd: string }) => {
    if (m.cmd.startsWith("enrol:")) void enrol(Number(m.cmd.slice("enrol:".length))).then((codes) => process.send!({ codes }));
    else if (m.cmd === "reset") {
      loop.reset();
      loop.enable();
      process.send!({ reset: true });
    } else if (m.cmd === "loop") process.send!({ loop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 } });
    else if (m.cmd === "exit") void server.close().then(() => process.exit(0));
  });
  process.send!({ url: server.url });
};

// ---- headsets and a browser (this process) -------------------------------------------------------------------------

const main = async () => {
  const steps = (process.env.STEPS ?? "500,1000,2000").split(",").map(Number);
  const windowS = Number(process.env.WINDOW_S ?? 10);
  const testing = Number(process.env.TESTING ?? 100);
  const child = fork(fileURLToPath(import.meta.url), ["--server"], { execArgv: ["--import", "tsx"] });
  const ask = <T>(cmd: string, key: string) => askChild<T>(child, cmd, key);
  const { url } = await new Promise<{ url: string }>((resolve) => child.once("message", resolve as never));
  const codes: Array<[string, string]> = [];
  const login = await fetch(`${url}/api/login`, { method: "POST", body: JSON.stringify({ username: "manager", password }) });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;

  const sentAt = new Map<string, number>();
  const fleet = protocolFleet(url, { sentAt });
  const browser = await liveLatencies(url, token, sentAt);

  console.log(
    `Clinic server with headsets beating every second, ${testing} streaming progress 5 times a second; ${windowS} s measured per step (${load()})`,
  );
  console.log(
    "headsets | connected (device/all) | progress to browser p50 / p99 | device/all | server loop delay p99 / max | load average",
  );
  let started = 0;
  for (const n of steps) {
    codes.push(...(await ask<Array<[string, string]>>(`enrol:${n}`, "codes")));
    started = await growFleet(started, n, (i) => fleet.connect(codes[i]![0], codes[i]![1], i < testing), { batch: 50, pauseMs: 100 });
    await sleep(5_000);
    await ask("reset", "reset");
    browser.take();
    await sleep(windowS * 1000);
    const window = browser.take().sort((a, b) => a - b); // frames arriving while device/all is timed are the next take's
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
  fleet.stop();
  browser.close();
  child.send({ cmd: "exit" });
};

if (process.argv.includes("--server")) void runServer();
else void main();
