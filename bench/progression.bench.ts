// npm run bench:progression (issue 30 §4): how reliable is each progression criterion? Simulated cohorts of eyes
// (simulator/perimetry/cohorts: stable, diffuse and localised loss at set rates, false answers, a learning effect),
// each visit a 24-2 DS test run by the simulated observer, whose test-retest variability is first calibrated to the
// published figures; every method reads every eye's series. Prints specificity, sensitivity, median time to detection
// and the speed of all criteria on 10,000 eyes of 10 visits; writes the table the Support page shows and README's copy.
// Prints, never asserts. EYES (per cohort, 200), WORKERS (2), SPEED_EYES (10,000), PARTS_EYES (1,000: eyes the
// parts are timed on), CALIBRATION_EYES (300), NPERM (PoPLR's permutations; the product's default unless set), WRITE (1: write the
// JSON and README).
import { execSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { METHOD_IDS, type MethodId } from "../core/analytics/progression/criteria/index.ts";
import { Strategy, patternLabel, strategyCodes } from "../core/model/enums.ts";
import { COHORTS, DEFAULT_FOLLOW_UP } from "../simulator/perimetry/cohorts/cohorts.ts";
import { GARDINER_2018_SD, type RetestSd, calibrateObserver, retestSd } from "../simulator/perimetry/cohorts/observer.ts";
import { COHORT_STRATEGY, type CohortVisit } from "../simulator/perimetry/cohorts/simulate.ts";
import { COHORT_PATTERN, cohortEye } from "../simulator/perimetry/cohorts/true-field.ts";
import { HENSON } from "../simulator/perimetry/fos.ts";
import { loadAverage } from "./figures.ts";
import { lengthsFor, sensitivity, specificity, visitsAt } from "./progression/accuracy.ts";
import { createPool } from "./progression/pool.ts";
import { JSON_PATH, type ProgressionAccuracy, markdown, rewriteReadme, writeJson } from "./progression/report.ts";
import { PARTS, type Part } from "./progression/timing.ts";
import type { AccuracyAnswer, AccuracyTask, SpeedAnswer, SpeedTask } from "./progression/worker.ts";

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const EYES = env("EYES", 200);
const WORKERS = env("WORKERS", Math.min(2, availableParallelism()));
const SPEED_EYES = env("SPEED_EYES", 10_000);
const SPEED_VISITS = 10;
const PARTS_EYES = Math.min(env("PARTS_EYES", 1_000), env("SPEED_EYES", 10_000));
const CALIBRATION_EYES = env("CALIBRATION_EYES", 300);
const NPERM = process.env.NPERM ? Number(process.env.NPERM) : undefined;
const followUp = DEFAULT_FOLLOW_UP;
/** The methods as the README names them (the web's words are in web/results/criteria-names.ts). */
const names: Record<MethodId, string> = {
  events: "Events (GPA)",
  poplr: "PoPLR",
  "md-slope": "MD slope",
  "vfi-trend": "VFI trend (GPA rules)",
  cigts: "CIGTS",
  "plr-nouri-2012": "PLR (Nouri-Mahdavi 2012)",
  "plr-three-omitting": "PLR, three-omitting",
  "schell-2014": "Schell 2014",
  "cluster-trend": "Cluster trend (Octopus)",
};

const t0 = performance.now();
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
console.log(`Progression criteria on simulated cohorts (load average ${loadAverage()})`);
console.log(
  `${EYES} eyes per cohort (both eyes of ${EYES / 2} patients), ${patternLabel[COHORT_PATTERN]} ${strategyCodes[COHORT_STRATEGY].label} ` +
    `every ${followUp.intervalYears * 12} months, ${followUp.visits} visits; ${WORKERS} worker threads; PoPLR ${NPERM ?? "default"} permutations\n`,
);

// 1. The observer's test-retest variability against the published figures, before and after calibration.
let t = performance.now();
const calibration = calibrateObserver(followUp, CALIBRATION_EYES);
const fullThreshold = retestSd(followUp, HENSON.glaucoma, CALIBRATION_EYES, Strategy.Normal);
const sdCell = (sds: readonly RetestSd[], s: number) => {
  const x = sds.find((r) => r.sensitivity === s);
  return x?.sd == null ? "-" : `${x.sd.toFixed(2)} (${x.locations})`;
};
console.log(`Pointwise test-retest SD (dB; locations) by true sensitivity, ${CALIBRATION_EYES} eyes tested twice (${seconds(t)} s):`);
console.log("true dB  published (Gardiner 2018)  DS, profiles' observer  DS, calibrated  4-2 full threshold, profiles' observer");
for (const r of calibration.after) {
  const pub = GARDINER_2018_SD.find((p) => p.sensitivity === r.sensitivity);
  console.log(
    `${String(r.sensitivity).padEnd(9)}${(pub ? `${pub.low}-${pub.high}` : "").padEnd(27)}${sdCell(calibration.before, r.sensitivity).padEnd(24)}` +
      `${sdCell(calibration.after, r.sensitivity).padEnd(16)}${sdCell(fullThreshold, r.sensitivity)}`,
  );
}
const v = calibration.variability;
console.log(
  `Calibrated observer: sigma(t) = min(6, exp(${v.a.toFixed(4)} t + ${v.b.toFixed(3)})) dB (Henson's glaucoma: ` +
    `exp(${HENSON.glaucoma.a} t + ${HENSON.glaucoma.b})), ${calibration.iterations} iterations\n`,
);

// 2. Every cohort's eyes simulated and read by every method, in chunks over the workers.
const pool = createPool<AccuracyTask | SpeedTask, AccuracyAnswer | SpeedAnswer>(WORKERS);
const CHUNK = 10;
const tasks: AccuracyTask[] = COHORTS.flatMap((cohort) => {
  const stable = cohort.kind === "stable";
  return Array.from({ length: Math.ceil(EYES / CHUNK) }, (_, k) => ({
    kind: "accuracy" as const,
    cohort: cohort.id,
    from: k * CHUNK,
    to: Math.min(EYES, (k + 1) * CHUNK),
    followUp,
    variability: v,
    lengths: lengthsFor(stable, followUp.visits),
    always: stable ? [] : [2, 3, 5].map((y) => visitsAt(y, followUp.intervalYears)),
    ...(NPERM !== undefined && { nperm: NPERM }),
    keepVisits: SPEED_VISITS,
  }));
});
t = performance.now();
const answers = (await pool.run(tasks)) as AccuracyAnswer[];
const cpu = answers.reduce((s, a) => ({ sim: s.sim + a.simulateMs, read: s.read + a.readMs }), { sim: 0, read: 0 });
console.log(
  `Cohorts: ${COHORTS.length} x ${EYES} eyes in ${seconds(t)} s (CPU: simulating ${(cpu.sim / 1000).toFixed(1)} s, ` +
    `reading the series ${(cpu.read / 1000).toFixed(1)} s; load average ${loadAverage()})\n`,
);
const eyesOf = (id: string) =>
  answers.filter((a) => a.cohort === id).flatMap((a) => a.eyes.map((e) => ({ visits: followUp.visits, codes: e.codes })));

// 3. Speed: every criterion on SPEED_EYES eyes of 10 visits (the cohorts' series, reused in turn), split over the workers.
const kept = answers.flatMap((a) => a.kept);
const speedSeries: CohortVisit[][] = Array.from({ length: SPEED_EYES }, (_, k) => kept[k % kept.length]!);
const halves = Array.from({ length: WORKERS }, (_, w) =>
  speedSeries.slice(Math.floor((w * SPEED_EYES) / WORKERS), Math.floor(((w + 1) * SPEED_EYES) / WORKERS)),
);
const speedTask = (series: CohortVisit[][], parts: boolean): SpeedTask => ({
  kind: "speed",
  series,
  parts,
  ...(NPERM !== undefined && { nperm: NPERM }),
});
t = performance.now();
const timed = (await pool.run(halves.map((h) => speedTask(h, false)))) as SpeedAnswer[];
const speedSeconds = (performance.now() - t) / 1000;
const speedLoad = loadAverage();
console.log(
  `Speed: all ${METHOD_IDS.length} criteria on ${SPEED_EYES} eyes of ${SPEED_VISITS} visits (the ${kept.length} cohort series in turn): ` +
    `${speedSeconds.toFixed(1)} s on ${WORKERS} worker threads (aim 10 s; each worker ${timed.map((a) => ((a.totalMs ?? 0) / 1000).toFixed(1)).join(" / ")} s; ` +
    `load average ${speedLoad})`,
);
// The parts on the first PARTS_EYES of them (the same work again, piece by piece), CPU seconds summed over the workers.
const partsSeries = speedSeries.slice(0, PARTS_EYES);
const partAnswers =
  PARTS_EYES > 0
    ? ((await pool.run(
        Array.from({ length: WORKERS }, (_, w) =>
          speedTask(partsSeries.slice(Math.floor((w * PARTS_EYES) / WORKERS), Math.floor(((w + 1) * PARTS_EYES) / WORKERS)), true),
        ),
      )) as SpeedAnswer[])
    : null;
await pool.close();
const partSeconds = partAnswers
  ? (Object.fromEntries(PARTS.map((p) => [p, partAnswers.reduce((s, a) => s + a.parts![p], 0) / 1000])) as Record<Part, number>)
  : null;
if (partSeconds) {
  const total = Object.values(partSeconds).reduce((s, x) => s + x, 0);
  console.log(
    `CPU seconds per part on the first ${PARTS_EYES} of those eyes (${total.toFixed(1)} s in all; load average ${loadAverage()}):`,
  );
  for (const p of PARTS) console.log(`  ${(names[p as MethodId] ?? p).padEnd(28)}${partSeconds[p].toFixed(2).padStart(8)} s`);
}

// 4. The table, printed, and written for the Support page and the README.
const commit = (() => {
  try {
    return execSync("git rev-parse --short HEAD", { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
})();
const data: ProgressionAccuracy = {
  measuredOn: new Date().toISOString().slice(0, 10),
  commit,
  command: "npm run bench:progression",
  followUp: {
    pattern: patternLabel[COHORT_PATTERN],
    strategy: strategyCodes[COHORT_STRATEGY].label,
    intervalMonths: followUp.intervalYears * 12,
    visits: followUp.visits,
    ageRange: followUp.ageRange,
    eyesPerCohort: EYES,
    clusterLocations: cohortEye(followUp, 0).cluster.length,
    seed: followUp.seed,
    nperm: NPERM ?? null,
  },
  observer: { variability: v, published: GARDINER_2018_SD, before: calibration.before, after: calibration.after },
  cohorts: COHORTS,
  methods: METHOD_IDS,
  specificity: Object.fromEntries(COHORTS.filter((c) => c.kind === "stable").map((c) => [c.id, specificity(eyesOf(c.id))])),
  sensitivity: Object.fromEntries(
    COHORTS.filter((c) => c.kind !== "stable").map((c) => [c.id, sensitivity(eyesOf(c.id), followUp.intervalYears)]),
  ),
  speed: {
    eyes: SPEED_EYES,
    visits: SPEED_VISITS,
    workers: WORKERS,
    seconds: speedSeconds,
    loadAverage: speedLoad,
    partsEyes: PARTS_EYES,
    parts: partSeconds,
  },
};
const table = markdown(data, names);
console.log(`\n${table}\n`);
if (env("WRITE", 1) !== 0) {
  writeJson(data);
  console.log(
    `Wrote ${JSON_PATH.pathname}; README.md ${rewriteReadme(table) ? "rewritten between its markers" : "has no markers: paste the table"}.`,
  );
}
console.log(`Done in ${seconds(t0)} s (load average ${loadAverage()}).`);
