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

const rows = parseVisualFieldsCsv(readFileSync(resolve(import.meta.dirname, "../../shared/data/visualfields/vfpwgSunyiu24d2.csv"), "utf8"));
const inputs: ResultInput[] = rows.map((r) => ({
  pattern: Pattern.P24_2, eye: r.eye === "OD" ? Eye.Right : Eye.Left, age: r.age, thresholds: r.sensitivities,
  catchTrials: { falsePositive: { errors: 1, presentations: 12 }, falseNegative: { errors: 0, presentations: 10 }, blindSpot: { errors: 1, presentations: 14 } },
}));

function rate(label: string, fn: (i: number) => unknown, minMs = 2000): void {
  for (let i = 0; i < 2000; i++) fn(i); // warm up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    for (let k = 0; k < 500; k++) fn(n++);
    t = performance.now();
  }
  const perSec = (n / (t - t0)) * 1000;
  console.log(`${label}: ${Math.round(perSec).toLocaleString("en")} fields/s (${((t - t0) * 1000 / n).toFixed(2)} µs per field)`);
}

rate("24-2 fields fully analysed (analyseResult)", (i) => analyseResult(inputs[i % inputs.length]!));
rate("24-2 fields, visualFields indices only (analyse CLI rows)", (i) => analyseRows([rows[i % rows.length]!]));

// PoPLR: the OD series' first 10 visits (random permutations, seed 1).
const od = rows.filter((r) => r.eye === "OD").sort((a, b) => a.date.localeCompare(b.date)).slice(0, 10);
const years = yearsSinceFirst(od.map((r) => isoDateToDays(r.date)));
const series = od.map((r) => r.sensitivities.map((s, i) => (i === 25 || i === 34 ? null : s)));
const times: number[] = [];
let last;
for (let i = 0; i < 12; i++) {
  const t0 = performance.now();
  last = poplr(years, series, { nperm: 5040, seed: 1 });
  times.push(performance.now() - t0);
}
const steady = times.slice(2).sort((a, b) => a - b);
console.log(
  `PoPLR 10 visits x 52 locations x ${last!.nperm} permutations: median ${steady[Math.floor(steady.length / 2)]!.toFixed(1)} ms, ` +
  `min ${steady[0]!.toFixed(1)} ms, first (cold) ${times[0]!.toFixed(1)} ms`,
);
