// Build the SORS matrices: `npx tsx simulator/perimetry/build-sors.ts` writes fixtures/sors/{24-2,G}.json.
// Deterministic: the synthetic fields come from a fixed seed, so a rebuild gives byte-identical files.
// Training set per pattern: the 263 SUNY-IU control fields (24-2; carried to G by interpolation, training-fields.ts) plus
// 600 synthetic glaucomatous fields (200 each early, moderate, advanced; ages 45-85), measured-like (noise, clipped).
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Pattern } from "../../core/model/enums.ts";
import { SorsLocations } from "../../core/model/enums.ts";
import type { GlaucomaStage } from "./defects.ts";
import { createRng } from "./random.ts";
import { type SorsModel, greedyOrder, meanAndCovariance, reconstructionMatrix } from "./sors.ts";
import { carryControls, parseVisualFieldsCsv, syntheticGlaucomaField } from "./training-fields.ts";

export const SORS_MODEL_VERSION = 1;
export const SORS_RIDGE = 0.5;
export const SYNTHETIC_PER_STAGE = 200;
export const TRAINING_SEED = "isopter-sors-training-v1";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const controlsCsv = resolve(root, "fixtures/visualfields/vfctrSunyiu24d2.csv");

const round = (x: number, digits: number) => Number(x.toFixed(digits));

export const buildSorsModel = (pattern: Pattern, csvText: string): SorsModel => {
  const geometry = getPattern(pattern);
  const p24 = getPattern(Pattern.P24_2);
  const controls = parseVisualFieldsCsv(csvText);
  const controlFields =
    pattern === Pattern.P24_2
      ? controls.map((c) => [...c.values])
      : carryControls(controls, p24.points, p24.blindSpotIndices, geometry.points);
  const rng = createRng(`${TRAINING_SEED}/${geometry.label}`);
  const stages: GlaucomaStage[] = ["early", "moderate", "advanced"];
  const synthetic = stages.flatMap((stage) =>
    Array.from({ length: SYNTHETIC_PER_STAGE }, () => syntheticGlaucomaField(geometry.points, stage, Math.round(rng.uniform(45, 85)), rng)),
  );
  const fields = [...controlFields, ...synthetic];
  const { mean, covariance } = meanAndCovariance(fields);
  const order = greedyOrder(covariance, geometry.blindSpotIndices, SORS_RIDGE);
  const stageMatrices: SorsModel["stages"] = Object.fromEntries(
    SorsLocations.filter((k) => k <= geometry.points.length).map((k) => {
      const chosen = order.slice(0, k);
      const matrix = reconstructionMatrix(covariance, chosen, SORS_RIDGE).map((row) => row.map((v) => round(v, 5)));
      return [String(k), { chosen, matrix }];
    }),
  );
  return {
    version: SORS_MODEL_VERSION,
    pattern,
    label: geometry.label,
    ridge: SORS_RIDGE,
    order,
    mean: mean.map((v) => round(v, 4)),
    covariance: covariance.map((row) => row.map((v) => round(v, 4))),
    stages: stageMatrices,
    training: {
      controls:
        `SUNY-IU 24-2 controls (visualFields 1.0.8 vfctrSunyiu24d2, Apache-2.0), ${controlFields.length} fields` +
        (pattern === Pattern.P24_2 ? "" : ", carried to this pattern by inverse-distance interpolation of total deviation"),
      synthetic: `${synthetic.length} glaucomatous fields (${SYNTHETIC_PER_STAGE} each early, moderate, advanced; simulator/perimetry/defects.ts), seed ${TRAINING_SEED}/${geometry.label}`,
      objective: "greedy least-squares reconstruction error over all non-blind-spot locations (Kucur & Sznitman 2017)",
    },
  };
};

export const SORS_PATTERNS = [Pattern.P24_2, Pattern.G] as const;

export const sorsFixturePath = (label: string) => join(root, "fixtures/sors", `${label}.json`);

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const csv = readFileSync(controlsCsv, "utf8");
  mkdirSync(join(root, "fixtures/sors"), { recursive: true });
  for (const pattern of SORS_PATTERNS) {
    const model = buildSorsModel(pattern, csv);
    const path = sorsFixturePath(model.label);
    writeFileSync(path, JSON.stringify(model) + "\n");
    console.log(`${path}: ${model.order.length} locations, order ${model.order.slice(0, 10).join(",")}...`);
  }
}
