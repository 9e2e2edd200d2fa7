// Shared loaders for the visualFields 1.0.8 reference files (../shared/data/visualfields, resolved from the repo root).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";

export const sharedDataDir = resolve(import.meta.dirname, "../../../shared/data/visualfields");
export const readShared = (file: string) => readFileSync(resolve(sharedDataDir, file), "utf8");
export const readSharedJson = <T = any>(file: string): T => JSON.parse(readShared(file)) as T;

export const patientRows = () => parseVisualFieldsCsv(readShared("vfpwgSunyiu24d2.csv"));
export const pointwiseReference = () => readSharedJson("reference/sunyiu-pwg-pointwise.json").rows as Array<{
  id: string; eye: string; date: string; age: number; td: (number | null)[]; tdp: (number | null)[];
  pd: (number | null)[]; pdp: (number | null)[]; gh: number;
}>;
export const globalReference = () => readSharedJson("reference/sunyiu-pwg-global.json").rows as Array<{
  id: string; eye: string; date: string; gl: Record<string, number>; glp: Record<string, number>;
}>;
export const progressionReference = () => readSharedJson("reference/sunyiu-pwg-progression.json").series as any[];
