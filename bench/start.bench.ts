// `npm run bench:start`: the README's start command (`npm start`) timed as a user runs it, cold and warm (issue 18 §6;
// aims: cold <= 15 s, warm <= 5 s). Each run spawns `npm start` in this checkout with HEADSETS=0, a free PORT on
// 127.0.0.1 and its own DATA_DIR, and times from the spawn to the line 'Isopter listening', to the demo logins printed
// after it, and to the first successful GET /api/ready; the web build's line says whether it built and how long.
//   cold  no build stamp (dist/web/.sources.sha256 removed, so the web app is built) and a fresh DATA_DIR (the first
//         start: migrations and the demo clinic's seed)
//   warm  the stamp the cold run left (sources unchanged, no build) and the DATA_DIR the cold run made
// COLD_RUNS (1) and WARM_RUNS (3) choose how many. Prints the figures beside the load average; asserts nothing (the
// machine is shared). It rewrites this checkout's dist/web on a cold run, as `npm start` would after a change.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { STAMP } from "../scripts/build-web-if-changed.ts";
import { loadAverage, sleep } from "./figures.ts";
import { freePort } from "../scripts/cluster/processes.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const AIM_COLD_S = 15;
const AIM_WARM_S = 5;
const TIMEOUT_MS = 300_000;
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 1);
const WARM_RUNS = Number(process.env.WARM_RUNS ?? 3);

interface Run {
  kind: "cold" | "warm";
  /** Seconds from the spawn to each milestone (null: not reached). */
  webLine: number | null;
  listening: number | null;
  logins: number | null;
  ready: number | null;
  /** What the web build step printed ("Web app built ... in 7.2 s", "Web app up to date ..."). */
  web: string;
  load: string;
}

async function startOnce(kind: Run["kind"], dataDir: string): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const since = () => (performance.now() - started) / 1000;
  // A process group of its own (npm, sh, tsx, node), ended as one at the end of the run.
  const child = spawn("npm", ["start"], {
    cwd: repo,
    env: { ...process.env, HEADSETS: "0", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const run: Run = { kind, webLine: null, listening: null, logins: null, ready: null, web: "", load: "" };
  let output = "";
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const onLine = (line: string) => {
    if (/^Web app /.test(line) && run.webLine === null) {
      run.webLine = since();
      run.web = line.trim();
    }
    if (/Isopter listening on/.test(line) && run.listening === null) run.listening = since();
    if (/^Demo logins:/.test(line) && run.logins === null) run.logins = since();
  };
  let pending = "";
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  };
  child.stdout.on("data", read);
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });

  // The first successful GET /api/ready, polled every 25 ms until the deadline (or the process ended).
  const deadline = started + TIMEOUT_MS;
  while (run.ready === null && !exited && performance.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) run.ready = since();
    } catch {
      // not listening yet
    }
    if (run.ready === null) await sleep(25);
  }
  // The demo logins are printed right after the listening line; give them a moment if the ready answer came first.
  for (let i = 0; i < 200 && run.logins === null && !exited; i++) await sleep(25);
  run.load = loadAverage();
  if (!exited) {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    for (let i = 0; i < 600 && !exited; i++) await sleep(25);
    if (!exited)
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
  }
  if (run.ready === null) console.log(`  (${kind} start did not become ready; its output:)\n${output.slice(-2_000)}`);
  return run;
}

const seconds = (s: number | null) => (s === null ? "-" : s.toFixed(1)).padStart(9);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN;
};

async function main() {
  console.log(`npm start, cold (no build stamp, fresh DATA_DIR) and warm (stamp present, existing DATA_DIR); HEADSETS=0`);
  console.log(`aims (issue 18): cold <= ${AIM_COLD_S} s, warm <= ${AIM_WARM_S} s to 'Isopter listening' with the demo logins`);
  console.log(
    `${"run".padEnd(6)} ${"web step".padStart(9)} ${"listening".padStart(9)} ${"logins".padStart(9)} ${"ready".padStart(9)}  load average  web build`,
  );
  const runs: Run[] = [];
  const dataDirs: string[] = [];
  let dataDir = "";
  for (let i = 0; i < COLD_RUNS; i++) {
    rmSync(join(repo, "dist/web", STAMP), { force: true });
    const parent = mkdtempSync(join(tmpdir(), "isopter-bench-start-"));
    dataDirs.push(parent);
    dataDir = join(parent, "data"); // does not exist yet: the first start creates it
    runs.push(await startOnce("cold", dataDir));
    print(runs.at(-1)!);
  }
  if (!dataDir) {
    // warm runs alone: a DATA_DIR made by one unmeasured start first
    const parent = mkdtempSync(join(tmpdir(), "isopter-bench-start-"));
    dataDirs.push(parent);
    dataDir = join(parent, "data");
    await startOnce("cold", dataDir);
  }
  for (let i = 0; i < WARM_RUNS; i++) {
    runs.push(await startOnce("warm", dataDir));
    print(runs.at(-1)!);
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  for (const kind of ["cold", "warm"] as const) {
    const done = runs.filter((r) => r.kind === kind && r.logins !== null).map((r) => r.logins!);
    if (!done.length) continue;
    const aim = kind === "cold" ? AIM_COLD_S : AIM_WARM_S;
    const m = median(done);
    console.log(
      `${kind}: median ${m.toFixed(1)} s to the demo logins over ${done.length} run(s); aim <= ${aim} s: ${m <= aim ? "met" : "NOT met"} (load average ${loadAverage()})`,
    );
  }
}

function print(run: Run) {
  console.log(
    `${run.kind.padEnd(6)} ${seconds(run.webLine)} ${seconds(run.listening)} ${seconds(run.logins)} ${seconds(run.ready)}  ${run.load}  ${run.web}`,
  );
}

await main();
