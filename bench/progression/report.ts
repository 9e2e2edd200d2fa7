// The measured table of npm run bench:progression as data (web/pages/support/progression-accuracy.json, which the
// Support page "How reliable is progression analysis" shows) and as Markdown (printed, and rewritten into README.md
// between the progression-accuracy markers).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MethodId } from "../../core/analytics/progression/criteria/index.ts";
import type { Cohort } from "../../simulator/perimetry/cohorts/cohorts.ts";
import type { PublishedSd, RetestSd } from "../../simulator/perimetry/cohorts/observer.ts";
import type { HensonVariability } from "../../simulator/perimetry/fos.ts";
import type { Sensitivity, Specificity } from "./accuracy.ts";
import type { Part } from "./timing.ts";

export interface ProgressionAccuracy {
  readonly measuredOn: string;
  readonly commit: string;
  readonly command: string;
  readonly followUp: {
    readonly pattern: string;
    readonly strategy: string;
    readonly intervalMonths: number;
    readonly visits: number;
    readonly ageRange: readonly [number, number];
    readonly eyesPerCohort: number;
    /** Locations of a localised cohort's cluster. */
    readonly clusterLocations: number;
    readonly seed: string;
    /** PoPLR's permutations (null: the product's default). */
    readonly nperm: number | null;
  };
  readonly observer: {
    readonly variability: HensonVariability;
    readonly published: readonly PublishedSd[];
    readonly before: readonly RetestSd[];
    readonly after: readonly RetestSd[];
  };
  readonly cohorts: readonly Cohort[];
  readonly methods: readonly MethodId[];
  readonly specificity: Record<string, Record<MethodId, Specificity>>;
  readonly sensitivity: Record<string, Record<MethodId, Sensitivity>>;
  readonly speed: {
    readonly eyes: number;
    readonly visits: number;
    readonly workers: number;
    readonly seconds: number;
    readonly loadAverage: string;
    /** CPU seconds of each part on the first partsEyes eyes, summed over the workers. */
    readonly partsEyes: number;
    readonly parts: Record<Part, number> | null;
  };
}

export const JSON_PATH = new URL("../../web/pages/support/progression-accuracy.json", import.meta.url);
const README = new URL("../../README.md", import.meta.url);
const BEGIN = "<!-- progression-accuracy -->";
const END = "<!-- /progression-accuracy -->";

/** Numbers rounded for the file: shares to 0.1 %, seconds to 0.01. */
const rounded = (_key: string, v: unknown) => (typeof v === "number" && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v);

/** Writes the file, formatted as the repository's formatter keeps JSON (biome.json), so a rerun leaves no lint. */
export const writeJson = (data: ProgressionAccuracy): void => {
  writeFileSync(JSON_PATH, `${JSON.stringify(data, rounded, 2)}\n`);
  execFileSync("npx", ["biome", "format", "--write", fileURLToPath(JSON_PATH)], { stdio: "ignore" });
};

export const cohortLabel = (c: Cohort): string => {
  const parts = [c.kind === "stable" ? "stable" : `${c.kind} ${c.rateDbPerYear} dB/year`];
  if (c.fpr > 0.05 || c.fnr > 0.05) parts.push(`FP ${c.fpr * 100} %, FN ${c.fnr * 100} %`);
  if (c.learningDb > 0) parts.push(`learning ${c.learningDb} dB`);
  return parts.join(", ");
};

const pct = (share: number) => `${Math.round(share * 100)}`;
const judgedNote = (judged: number) => (judged < 0.995 ? ` (judged ${pct(judged)})` : "");

/** The tables as Markdown: specificity on the stable cohorts, sensitivity and median time on the progressing ones. */
export const markdown = (data: ProgressionAccuracy, names: Record<MethodId, string>): string => {
  const stable = data.cohorts.filter((c) => c.kind === "stable");
  const progressing = data.cohorts.filter((c) => c.kind !== "stable");
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const rule = (n: number) => row(Array.from({ length: n }, () => "---"));
  const f = data.followUp;
  const out = [
    `Measured on ${data.measuredOn} at commit ${data.commit} (\`${data.command}\`): ${f.eyesPerCohort} simulated eyes per cohort, ` +
      `${f.pattern} ${f.strategy} every ${f.intervalMonths} months (${f.visits} visits over ${((f.visits - 1) * f.intervalMonths) / 12} years), ` +
      `ages ${f.ageRange[0]}-${f.ageRange[1]}, early glaucomatous fields at the first visit.`,
    "",
    "Specificity: % of stable eyes not called worsening on their first 5 / 10 visits (published aim: 95 % or more for PoPLR and three-omitting PLR).",
    "",
    row(["method", ...stable.map(cohortLabel)]),
    rule(stable.length + 1),
    ...data.methods.map((m) =>
      row([
        names[m],
        ...stable.map((c) => {
          const s = data.specificity[c.id]![m];
          return `${pct(1 - s.visits5.worsening)} / ${pct(1 - s.visits10.worsening)}${judgedNote(Math.min(s.visits5.judged, s.visits10.judged))}`;
        }),
      ]),
    ),
    "",
    "Sensitivity: % of progressing eyes called worsening at 2 / 3 / 5 years; in brackets the median time to detection (years).",
    "",
    row(["method", ...progressing.map(cohortLabel)]),
    rule(progressing.length + 1),
    ...data.methods.map((m) =>
      row([
        names[m],
        ...progressing.map((c) => {
          const s = data.sensitivity[c.id]![m];
          const median = s.medianYears === null ? `> ${((f.visits - 1) * f.intervalMonths) / 12}` : `${s.medianYears}`;
          return `${pct(s.years2.worsening)} / ${pct(s.years3.worsening)} / ${pct(s.years5.worsening)} (${median})`;
        }),
      ]),
    ),
    "",
    `Speed: all ${data.methods.length} criteria on ${data.speed.eyes.toLocaleString("en")} eyes of ${data.speed.visits} visits took ` +
      `${data.speed.seconds.toFixed(1)} s on ${data.speed.workers} worker threads (aim: 10 s; load average ${data.speed.loadAverage}).`,
  ];
  return out.join("\n");
};

/** Replaces what lies between the markers in README.md; false when the markers are missing. */
export const rewriteReadme = (table: string): boolean => {
  const text = readFileSync(README, "utf8");
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) return false;
  writeFileSync(README, `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`);
  return true;
};
