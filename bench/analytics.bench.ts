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

const rows = parseVisualFieldsCsv(readFileSync(resolve(import.meta.dirname, "../fixtures/visualfields/vfpwgSunyiu24d2.csv"), "utf8"));
const inputs: ResultInput[] = rows.map((r) => ({
  pattern: Pattern.P24_2, eye: r.eye === "OD" ? Eye.Right : Eye.Left, age: r.age, thresholds: r.sensitivities,
  catchTrials: { falsePositive: { errors: 1, presentations: 12 }, falseNegative: { errors: 0, presentations: 10 }, blindSpot: { errors: 1, presentations: 14 } },
}));

// The machine is shared (2 cores, other jobs), so rates are per CPU second of this process (process.cpuUsage:
// time we were descheduled does not count), measured over several windows; best and median are printed, plus the
// wall-clock median for comparison.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

function rate(label: string, fn: (i: number) => unknown, windows = 7, windowMs = 300): void {
  for (let i = 0; i < 5000; i++) fn(i); // warm up
  const cpuRates: number[] = [], wallRates: number[] = [];
  let n = 0;
  for (let w = 0; w < windows; w++) {
    const c0 = cpuMs(), t0 = performance.now();
    let c = c0, k = 0;
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
  console.log(`${label} per CPU second: best ${fmt(Math.max(...cpuRates))}, median ${fmt(med(cpuRates))}; wall-clock median ${fmt(med(wallRates))}`);
}

rate("24-2 fields fully analysed (analyseResult)", (i) => analyseResult(inputs[i % inputs.length]!));
rate("24-2 fields, visualFields indices only (analyse CLI rows)", (i) => analyseRows([rows[i % rows.length]!]));

// PoPLR: the OD series' first 10 visits (random permutations, seed 1).
const od = rows.filter((r) => r.eye === "OD").sort((a, b) => a.date.localeCompare(b.date)).slice(0, 10);
const years = yearsSinceFirst(od.map((r) => isoDateToDays(r.date)));
const series = od.map((r) => r.sensitivities.map((s, i) => (i === 25 || i === 34 ? null : s)));
const times: number[] = [], cpuTimes: number[] = [];
let last;
for (let i = 0; i < 20; i++) {
  const c0 = cpuMs(), t0 = performance.now();
  last = poplr(years, series, { nperm: 5040, seed: 1 });
  times.push(performance.now() - t0);
  cpuTimes.push(cpuMs() - c0);
}
const steady = (v: number[]) => v.slice(2).sort((a, b) => a - b);
const [wall, cpu] = [steady(times), steady(cpuTimes)];
console.log(
  `PoPLR 10 visits x 52 locations x ${last!.nperm} permutations: CPU median ${cpu[Math.floor(cpu.length / 2)]!.toFixed(1)} ms ` +
  `(min ${cpu[0]!.toFixed(1)} ms); wall median ${wall[Math.floor(wall.length / 2)]!.toFixed(1)} ms; first (cold) ${times[0]!.toFixed(1)} ms`,
);
