// npm run bench:analytics — prints figures, asserts nothing (the machine is shared).
// 1. 24-2 fields fully analysed per second on one core (analyseResult: TD, PD, probability maps, global indices and
//    levels, VFI, GHT, Humphrey MD/PSD, Octopus indices, reliability, gaze). Aim: at least 100,000 per second.
// 2. PoPLR for 10 visits of 52 locations with 5,040 permutations. Aim: at most 50 ms.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Eye, Pattern } from "../core/model/enums.ts";
import { analyseResult, type ResultInput } from "../core/analytics/result-analysis.ts";
import { analyseRows } from "../core/analytics/analyse-csv.ts";
import { parseVisualFieldsCsv } from "../core/analytics/visualfields-csv.ts";
import { poplr } from "../core/analytics/progression/poplr.ts";
import { isoDateToDays, yearsSinceFirst } from "../core/analytics/progression/linear-regression.ts";
import { loadAverage } from "./figures.ts";

const rows = parseVisualFieldsCsv(readFileSync(resolve(import.meta.dirname, "../fixtures/visualfields/vfpwgSunyiu24d2.csv"), "utf8"));
const inputs: ResultInput[] = rows.map((r) => ({
  pattern: Pattern.P24_2,
  eye: r.eye === "OD" ? Eye.Right : Eye.Left,
  age: r.age,
  thresholds: r.sensitivities,
  catchTrials: {
    falsePositive: { errors: 1, presentations: 12 },
    falseNegative: { errors: 0, presentations: 10 },
    blindSpot: { errors: 1, presentations: 14 },
  },
}));

// The machine is shared (2 cores, other jobs), so rates are per CPU second of this process (process.cpuUsage:
// time we were descheduled does not count), measured over several windows; best and median are printed, plus the
// wall-clock median for comparison.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function rate(label: string, fn: (i: number) => unknown, windows = 7, windowMs = 300): void {
  for (let i = 0; i < 5000; i++) fn(i); // warm up
  const cpuRates: number[] = [],
    wallRates: number[] = [];
  let n = 0;
  for (let w = 0; w < windows; w++) {
    const c0 = cpuMs(),
      t0 = performance.now();
    let c = c0,
      k = 0;
    while (c - c0 < windowMs) {
      for (let j = 0; j < 500; j++) fn(n++);
      k += 500;
      c = cpuMs();
    }
    cpuRates.push((k / (c - c0)) * 1000);
    wallRates.push((k / (performance.now() - t0)) * 1000);
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const fmt = (r: number) => `${Math.round(r).toLocaleString("en")}/s (${(1e6 / r).toFixed(2)} µs each)`;
  console.log(
    `${label} per CPU second: best ${fmt(Math.max(...cpuRates))}, median ${fmt(med(cpuRates))}; wall-clock median ${fmt(med(wallRates))} (load average ${loadAverage()})`,
  );
}

rate("24-2 fields fully analysed (analyseResult)", (i) => analyseResult(inputs[i % inputs.length]!));
rate("24-2 fields, visualFields indices only (analyse CLI rows)", (i) => analyseRows([rows[i % rows.length]!]));

// PoPLR: the OD series' first 10 visits (random permutations, seed 1).
const od = rows
  .filter((r) => r.eye === "OD")
  .sort((a, b) => a.date.localeCompare(b.date))
  .slice(0, 10);
const years = yearsSinceFirst(od.map((r) => isoDateToDays(r.date)));
const series = od.map((r) => r.sensitivities.map((s, i) => (i === 25 || i === 34 ? null : s)));
const times: number[] = [],
  cpuTimes: number[] = [];
let last: ReturnType<typeof poplr> | undefined;
for (let i = 0; i < 20; i++) {
  const c0 = cpuMs(),
    t0 = performance.now();
  last = poplr(years, series, { nperm: 5040, seed: 1 });
  times.push(performance.now() - t0);
  cpuTimes.push(cpuMs() - c0);
}
const steady = (v: number[]) => v.slice(2).sort((a, b) => a - b);
const [wall, cpu] = [steady(times), steady(cpuTimes)];
console.log(
  `PoPLR 10 visits x 52 locations x ${last!.nperm} permutations: CPU median ${cpu[Math.floor(cpu.length / 2)]!.toFixed(1)} ms ` +
    `(min ${cpu[0]!.toFixed(1)} ms); wall median ${wall[Math.floor(wall.length / 2)]!.toFixed(1)} ms; first (cold) ${times[0]!.toFixed(1)} ms (load average ${loadAverage()})`,
);

// 3. `isopter analyse` (its table) and `isopter analyse --json` of a 100,000-row CSV (the fixture's rows repeated under
// new ids), run in this process through the CLI's own code into a discarding stdout. Aim: >= 150,000 fields per second
// (issue 18), as fast as one row at a time.
{
  const { Writable, Readable } = await import("node:stream");
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { runCli } = await import("../cli/run.ts");
  const ROWS = Number(process.env.ANALYSE_ROWS ?? 100_000);
  const fixture = readFileSync(resolve(import.meta.dirname, "../fixtures/visualfields/vfpwgSunyiu24d2.csv"), "utf8")
    .trimEnd()
    .split("\n");
  const [header, ...lines] = fixture;
  const body: string[] = [header!];
  for (let i = 0; i < ROWS; i++) body.push(lines[i % lines.length]!.replace(/^[^,]*/, `bench-${i}`));
  const dir = mkdtempSync(join(tmpdir(), "isopter-analyse-"));
  const file = join(dir, "fields.csv");
  const text = body.join("\n") + "\n";
  writeFileSync(file, text);
  body.length = 0;
  const { visualFieldRows: visualFieldsRows } = await import("../core/analytics/visualfields-csv.ts");
  const { analyseEachRow } = await import("../core/analytics/analyse-csv.ts");
  const timed = (label: string, run: () => number) => {
    const c = cpuMs(),
      w = performance.now();
    const n = run();
    const cpu = (cpuMs() - c) / 1000;
    console.log(
      `${label}: ${Math.round(n / cpu).toLocaleString("en")} fields per CPU second (wall ${((performance.now() - w) / 1000).toFixed(1)} s; load average ${loadAverage()})`,
    );
  };
  // Through the CLI's own code into a discarding stdout: the table `isopter analyse FILE` prints (the indices and the
  // 5% counts of each row), and --json (every row's td, pd and maps as well).
  // Each is run `runs` times: the first in a process that has not yet run the command (cold: its code is compiled as
  // it goes), then best and median of all, per CPU second of this process (compiler and GC threads included).
  const throughCli = async (args: readonly string[], runs: number) => {
    const cpuRates: number[] = [],
      wallRates: number[] = [];
    let bytes = 0,
      code = -1;
    for (let run = 0; run < runs; run++) {
      bytes = 0;
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          done();
        },
      });
      const io = { stdout: sink, stderr: process.stderr, stdin: Readable.from([]), env: {}, cwd: dir };
      const c0 = cpuMs();
      const t0 = performance.now();
      code = await runCli(["analyse", file, ...args], io);
      wallRates.push(ROWS / ((performance.now() - t0) / 1000));
      cpuRates.push(ROWS / ((cpuMs() - c0) / 1000));
    }
    const peak = process.resourceUsage().maxRSS * 1024; // the process's high-water mark so far (kB)
    const sorted = [...cpuRates].sort((a, b) => a - b);
    const median = sorted[Math.floor(runs / 2)]!;
    const n = (r: number) => Math.round(r).toLocaleString("en");
    console.log(
      `isopter analyse ${[...args, ""].join(" ")}of ${ROWS.toLocaleString("en")} rows, ${runs} runs: fields per CPU second first (cold) ${n(cpuRates[0]!)}, ` +
        `best ${n(sorted.at(-1)!)}, median ${n(median)}; wall-clock median ${n([...wallRates].sort((a, b) => a - b)[Math.floor(runs / 2)]!)}/s ` +
        `(${(bytes / 1e6).toFixed(0)} MB written, bench process RSS high-water mark ${(peak / 1e6).toFixed(0)} MB, exit ${code}; load average ${loadAverage()})` +
        (args.includes("--json")
          ? " — the aim is the table's; --json writes 108 full-precision numbers a row (its floor below)"
          : ` — aim >= 150,000 fields/s (median): ${median >= 150_000 ? "met" : "not met"}`),
    );
  };
  await throughCli([], 5);
  await throughCli(["--json"], 3);
  // What a user meets: a fresh `isopter` process (the launcher, its bundle, the whole file), against one printing its
  // help (the start-up alone). Wall-clock: the child's CPU is not visible from here.
  {
    const { spawnSync } = await import("node:child_process");
    const bin = resolve(import.meta.dirname, "../cli/bin.mjs");
    const wall = (args: readonly string[]) => {
      const t0 = performance.now();
      const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      if (run.status !== 0) throw new Error(`isopter ${args.join(" ")} exited ${run.status}`);
      return (performance.now() - t0) / 1000;
    };
    wall(["--help"]); // (builds the bundle if a source changed since the last)
    const start = wall(["--help"]),
      whole = wall(["analyse", file]);
    console.log(
      `a fresh \`isopter analyse\` process on ${ROWS.toLocaleString("en")} rows: ${whole.toFixed(2)} s wall-clock, of which start-up about ${start.toFixed(2)} s ` +
        `(\`isopter --help\`): ${Math.round(ROWS / (whole - start)).toLocaleString("en")} fields/s after start-up (load average ${loadAverage()})`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  // The CSV parsed and analysed in one call, as before issue 18 (every row and every analysis held at once)...
  timed(
    `${ROWS.toLocaleString("en")} rows parsed and analysed in one call (analyseRows(parseVisualFieldsCsv))`,
    () => analyseRows(parseVisualFieldsCsv(text)).length,
  );
  // ...and row by row, as isopter analyse now reads (nothing kept once a row is passed on).
  timed(`${ROWS.toLocaleString("en")} rows parsed and analysed row by row (analyseEachRow(visualFieldRows))`, () => {
    let n = 0;
    for (const _ of analyseEachRow(visualFieldsRows(text))) n++;
    return n;
  });
  // Where the rest of the CLI's time goes: parsing alone, and the floor the output itself sets: a 24-2 row's td and pd
  // are 108 full-precision doubles, each written by V8's shortest round-trip formatting (JSON.stringify).
  timed(`${ROWS.toLocaleString("en")} rows parsed only (visualFieldRows)`, () => {
    let n = 0;
    for (const _ of visualFieldsRows(text)) n++;
    return n;
  });
  const deviations = analyseRows(rows);
  timed(`${ROWS.toLocaleString("en")} rows' td and pd written as JSON only (the output's floor)`, () => {
    let chars = 0;
    for (let i = 0; i < ROWS; i++) {
      const r = deviations[i % deviations.length]!;
      chars += JSON.stringify(r.td).length + JSON.stringify(r.pd).length;
    }
    return chars > 0 ? ROWS : 0;
  });
}
