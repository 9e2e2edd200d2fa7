// npm run bench:strategies: accuracy and cost of each perimetry strategy on seeded simulated patients, beside the
// published ballparks (shared/design/analytics.md) and the seeds' duration estimate. Prints, never asserts.
import { performance } from "node:perf_hooks";
import { Pattern, type SorsLocations, StimuliUpdate, Strategy, patternLabel } from "../core/model/enums.ts";
import { estimatedDurationSeconds } from "../core/rules/duration.ts";
import { evaluate, specFor } from "../simulator/perimetry/evaluate.ts";
import { PROFILE_NAMES, type ProfileName } from "../simulator/perimetry/profiles.ts";

const RUNS = Number(process.env.RUNS ?? 20);

interface Row {
  readonly name: string;
  readonly pattern: Pattern;
  readonly strategy: Strategy;
  readonly sors: SorsLocations | null;
  readonly ballpark: string;
}

const rows: Row[] = [
  {
    name: "Normal 4-2",
    pattern: Pattern.P24_2,
    strategy: Strategy.Normal,
    sors: null,
    ballpark: "4-5 pres/loc normal, 10-12 deep; MAE ~1.5 normal, ~3 deep",
  },
  {
    name: "DS",
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    sors: null,
    ballpark: "fewer pres than Normal (Dynamic G ~11 vs Normal ~17 min)",
  },
  { name: "SORS 10", pattern: Pattern.P24_2, strategy: Strategy.SORS, sors: 10, ballpark: "MAE < 3; ~70% less time than DS" },
  { name: "SORS 16 (screening)", pattern: Pattern.P24_2, strategy: Strategy.SORS_screening, sors: 16, ballpark: "MAE < 3" },
  { name: "SORS 20", pattern: Pattern.P24_2, strategy: Strategy.SORS, sors: 20, ballpark: "MAE < 3" },
  { name: "SORS 36", pattern: Pattern.P24_2, strategy: Strategy.SORS, sors: 36, ballpark: "MAE < 3" },
  { name: "SORS 48", pattern: Pattern.P24_2, strategy: Strategy.SORS, sors: 48, ballpark: "MAE < 3" },
  { name: "SORS 54", pattern: Pattern.P24_2, strategy: Strategy.SORS, sors: 54, ballpark: "MAE < 3" },
  { name: "Supra", pattern: Pattern.P24_2, strategy: Strategy.Supra, sors: null, ballpark: "~1.5 pres/loc (screening)" },
  { name: "Supra S28", pattern: Pattern.S28, strategy: Strategy.Supra, sors: null, ballpark: "~1.5 pres/loc (screening)" },
  { name: "1LT Esterman", pattern: Pattern.Esterman, strategy: Strategy.OneLevel, sors: null, ballpark: "~340 s; 120 points at 10 dB" },
  { name: "1LT C40", pattern: Pattern.C40, strategy: Strategy.OneLevel, sors: null, ballpark: "(no published figure)" },
];

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number | null, d = 2) => (x === null ? "-" : x.toFixed(d));

const t0 = performance.now();
console.log(`Strategies on simulated patients (${RUNS} seeded patients per cell, 2000 ms update; 24-2 unless named)`);
console.log("MAE: mean absolute error (dB) against the true field clipped to 0-40 dB, blind spots out; screening rows give the share");
console.log("of locations classified as the true field says instead. pres/loc: stimuli per tested location (catch trials out).\n");
console.log(pad("strategy", 20) + PROFILE_NAMES.map((p) => pad(p, 17)).join("") + "ballpark");
console.log(pad("", 20) + PROFILE_NAMES.map(() => pad("MAE|agr pres/loc", 17)).join(""));
for (const row of rows) {
  const cells = PROFILE_NAMES.map((profile: ProfileName) => {
    const spec = { ...specFor(row.pattern, row.strategy, row.sors) };
    const e = evaluate(spec, profile, RUNS, 2026);
    const acc = e.mae !== null ? num(e.mae) : `${(100 * e.agreement!).toFixed(0)}%`;
    return pad(`${acc.padStart(5)}  ${num(e.presentationsPerLocation)}`, 17);
  });
  console.log(pad(row.name, 20) + cells.join("") + row.ballpark);
}

console.log("\nSimulated duration (healthy, playing phase only) against the seeds' estimate (scheduling seed §9, no extras)");
console.log(pad("pattern strategy", 22) + pad("update", 9) + pad("simulated s", 13) + pad("estimate s", 12) + "diff");
const durationRows: Array<[Pattern, Strategy, SorsLocations | null]> = [
  [Pattern.P24_2, Strategy.Normal, null],
  [Pattern.P24_2, Strategy.DS, null],
  [Pattern.P24_2, Strategy.Supra, null],
  [Pattern.P24_2, Strategy.SORS, 10],
  [Pattern.P24_2, Strategy.SORS, 20],
  [Pattern.P24_2, Strategy.SORS, 36],
  [Pattern.P24_2, Strategy.SORS, 48],
  [Pattern.P24_2, Strategy.SORS, 54],
  [Pattern.G, Strategy.Normal, null],
  [Pattern.G, Strategy.DS, null],
  [Pattern.G, Strategy.Supra, null],
  [Pattern.G, Strategy.SORS, 10],
  [Pattern.G, Strategy.SORS, 20],
  [Pattern.G, Strategy.SORS, 36],
  [Pattern.G, Strategy.SORS, 48],
  [Pattern.G, Strategy.SORS, 54],
  [Pattern.P10_2, Strategy.Normal, null],
  [Pattern.P10_2, Strategy.DS, null],
  [Pattern.P10_2, Strategy.Supra, null],
  [Pattern.P30_2, Strategy.Normal, null],
  [Pattern.P30_2, Strategy.DS, null],
  [Pattern.P30_2, Strategy.Supra, null],
  [Pattern.S28, Strategy.Supra, null],
  [Pattern.Esterman, Strategy.OneLevel, null],
];
const strategyName = (s: Strategy) => Object.entries(Strategy).find(([, v]) => v === s)![0];
for (const update of [StimuliUpdate.Ms2000, StimuliUpdate.Adaptive]) {
  for (const [pattern, strategy, sors] of durationRows) {
    const e = evaluate(specFor(pattern, strategy, sors, update), "healthy", RUNS, 2026);
    const est = estimatedDurationSeconds({
      pattern,
      strategy,
      sorsStage: sors ?? 36,
      stimuliUpdate: update,
      audioGuide: false,
      trackGaze: false,
      tutorial: false,
    })!;
    const diff = (100 * (e.meanDurationS / est - 1)).toFixed(1);
    console.log(
      pad(`${patternLabel[pattern]} ${strategyName(strategy)}${sors ? ` ${sors}` : ""}`, 22) +
        pad(update === StimuliUpdate.Adaptive ? "adaptive" : `${update}`, 9) +
        pad(e.meanDurationS.toFixed(0), 13) +
        pad(String(est), 12) +
        `${Number(diff) > 0 ? "+" : ""}${diff} %`,
    );
  }
}
console.log(`\n(${((performance.now() - t0) / 1000).toFixed(1)} s of wall time for all of the above)`);
