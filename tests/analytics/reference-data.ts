// Loaders for the visualFields 1.0.8 reference files copied into fixtures/visualfields (credit in its README).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";

export const visualFieldsDir = resolve(import.meta.dirname, "../../fixtures/visualfields");
export const readFixture = (file: string) => readFileSync(resolve(visualFieldsDir, file), "utf8");
export const readFixtureJson = <T = any>(file: string): T => JSON.parse(readFixture(file)) as T;

export const patientRows = () => parseVisualFieldsCsv(readFixture("vfpwgSunyiu24d2.csv"));
export const pointwiseReference = () =>
  readFixtureJson("reference/sunyiu-pwg-pointwise.json").rows as Array<{
    id: string;
    eye: string;
    date: string;
    age: number;
    td: (number | null)[];
    tdp: (number | null)[];
    pd: (number | null)[];
    pdp: (number | null)[];
    gh: number;
  }>;
export const globalReference = () =>
  readFixtureJson("reference/sunyiu-pwg-global.json").rows as Array<{
    id: string;
    eye: string;
    date: string;
    gl: Record<string, number>;
    glp: Record<string, number>;
  }>;
export const progressionReference = () => readFixtureJson("reference/sunyiu-pwg-progression.json").series as any[];
