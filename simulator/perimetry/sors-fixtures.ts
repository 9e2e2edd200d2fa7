import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getPattern } from "../../core/analytics/patterns.ts";
import type { Pattern } from "../../core/model/enums.ts";
import type { SorsModel } from "./sors.ts";

// Loads the SORS models that build-sors.ts wrote to fixtures/sors/ (24-2 and G: the patterns SORS is offered for).

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), "../../fixtures/sors");
const cache = new Map<Pattern, SorsModel>();

export const loadSorsModel = (pattern: Pattern): SorsModel => {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const label = getPattern(pattern).label;
  let model: SorsModel;
  try {
    model = JSON.parse(readFileSync(resolve(fixtures, `${label}.json`), "utf8")) as SorsModel;
  } catch (e) {
    throw new Error(
      `no SORS model for ${label} in fixtures/sors (run: npx tsx simulator/perimetry/build-sors.ts): ${(e as Error).message}`,
    );
  }
  cache.set(pattern, model);
  return model;
};
