import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildAllNormativeFiles } from "../../scripts/build-norms.ts";
import { buildAgeLinear } from "../../core/analytics/normative/age-linear.ts";
import { parseVisualFieldsCsv } from "../../core/analytics/visualfields-csv.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Pattern } from "../../core/model/enums.ts";
import { sunyiu24d2 } from "../../core/analytics/normative/generated/sunyiu-24d2.ts";
import { sunyiu10d2 } from "../../core/analytics/normative/generated/sunyiu-10d2.ts";
import {
  AGE_LINEAR_NORMATIVE_VERSION,
  CURRENT_NORMATIVE_VERSION,
  DEFAULT_NORMATIVE_VERSION,
  effectiveNormativeVersion,
  getNormativeDatabase,
  hasNormativeDatabase,
} from "../../core/analytics/normative/registry.ts";
import { lutProbabilities, type LocationVector, type NormativeTables } from "../../core/analytics/normative/tables.ts";
import { readFixture, visualFieldsDir } from "./reference-data.ts";

const root = resolve(import.meta.dirname, "../..");

describe("generated normative files are current (npm run build:norms)", () => {
  const files = buildAllNormativeFiles(visualFieldsDir);
  it("builds the TS module and the JSON copy of every database", () => {
    expect(files.map((f) => f.path).sort()).toEqual([
      "core/analytics/normative/generated/agelinear-sunyiu-10d2.ts",
      "core/analytics/normative/generated/agelinear-sunyiu-24d2.ts",
      "core/analytics/normative/generated/iowa-30d2-2.ts",
      "core/analytics/normative/generated/iowa-30d2.ts",
      "core/analytics/normative/generated/iowa-g1-2.ts",
      "core/analytics/normative/generated/iowa-g1.ts",
      "core/analytics/normative/generated/sunyiu-10d2.ts",
      "core/analytics/normative/generated/sunyiu-24d2.ts",
      "fixtures/normative/agelinear-sunyiu-10d2.json",
      "fixtures/normative/agelinear-sunyiu-24d2.json",
      "fixtures/normative/iowa-30d2-2.json",
      "fixtures/normative/iowa-30d2.json",
      "fixtures/normative/iowa-g1-2.json",
      "fixtures/normative/iowa-g1.json",
      "fixtures/normative/sunyiu-10d2.json",
      "fixtures/normative/sunyiu-24d2.json",
    ]);
  });
  for (const f of files)
    it(`${f.path} equals a fresh in-memory rebuild`, () => {
      expect(readFileSync(resolve(root, f.path), "utf8")).toBe(f.text);
    });
  it("a rebuild is byte-identical (reproducible)", () => {
    expect(buildAllNormativeFiles(visualFieldsDir)).toEqual(files);
  });
});

const maxDiff = (a: LocationVector, b: LocationVector) =>
  Math.max(0, ...a.map((v, i) => (v === null ? (b[i] === null ? 0 : Infinity) : Math.abs(v - b[i]!))));

function expectTablesClose(built: NormativeTables, ref: NormativeTables, tol: number) {
  expect(maxDiff(built.intercept, ref.intercept)).toBeLessThan(tol);
  expect(maxDiff(built.slope, ref.slope)).toBeLessThan(tol);
  for (const k of ["vf", "td", "pd"] as const) expect(maxDiff(built.sd[k], ref.sd[k])).toBeLessThan(tol);
  lutProbabilities.forEach((_, p) => {
    expect(maxDiff(built.tdLut[p]!, ref.tdLut[p]!)).toBeLessThan(tol);
    expect(maxDiff(built.pdLut[p]!, ref.pdLut[p]!)).toBeLessThan(tol);
    for (const [name, v] of Object.entries(ref.globalLut[p]!))
      expect(Math.abs(built.globalLut[p]![name as "tmd"] - v), `${name} at ${lutProbabilities[p]}`).toBeLessThan(tol);
  });
}

describe("our age-linear build", () => {
  it("with smoothing, reproduces visualFields' stored sunyiu_24d2 from the raw controls (within 1e-12)", () => {
    const rows = parseVisualFieldsCsv(readFixture("vfctrSunyiu24d2.csv"));
    const built = buildAgeLinear(rows, getPattern(Pattern.P24_2), { version: "x", source: "x", ghRank: 7, smooth: true });
    expectTablesClose(built, sunyiu24d2, 1e-12);
  });
  it("with smoothing, reproduces visualFields' stored sunyiu_10d2 (within 1e-12)", () => {
    const rows = parseVisualFieldsCsv(readFixture("vfctrSunyiu10d2.csv"));
    const built = buildAgeLinear(rows, getPattern(Pattern.P10_2), { version: "x", source: "x", ghRank: 10, smooth: true });
    expectTablesClose(built, sunyiu10d2, 1e-12);
  });
  it("without smoothing (our model) stays near the smooth tables: intercepts within 3 dB, TD SDs within 1.5 dB", () => {
    const ours = getNormativeDatabase(Pattern.P24_2, AGE_LINEAR_NORMATIVE_VERSION)!;
    expect(ours.method).toBe("age-linear");
    expect(maxDiff(ours.intercept, sunyiu24d2.intercept)).toBeLessThan(3);
    expect(maxDiff(ours.sd.td, sunyiu24d2.sd.td)).toBeLessThan(1.5);
  });
  it("has per-location SDs and percentile tables at 0.5, 1, 2, 5, 95, 98, 99 and 99.5 %, null at the blind spots", () => {
    const ours = getNormativeDatabase(Pattern.P24_2, AGE_LINEAR_NORMATIVE_VERSION)!;
    expect([...lutProbabilities]).toEqual([0.005, 0.01, 0.02, 0.05, 0.95, 0.98, 0.99, 0.995]);
    expect(ours.tdLut).toHaveLength(8);
    expect(ours.tdLut[0]![25]).toBeNull();
    for (let loc = 0; loc < 54; loc++) {
      if (loc === 25 || loc === 34) continue;
      for (let p = 1; p < 8; p++) expect(ours.tdLut[p]![loc]!).toBeGreaterThanOrEqual(ours.tdLut[p - 1]![loc]!);
    }
  });
});

describe("normative versions", () => {
  it("'a default version string applies to older results and contains the date 2024-06-05' (accounts seed §9)", () => {
    expect(DEFAULT_NORMATIVE_VERSION).toContain("2024-06-05");
    expect(effectiveNormativeVersion(undefined)).toBe(DEFAULT_NORMATIVE_VERSION);
    expect(effectiveNormativeVersion(null)).toBe(DEFAULT_NORMATIVE_VERSION);
    expect(getNormativeDatabase(Pattern.P24_2, null)).toBe(sunyiu24d2);
    expect(getNormativeDatabase(Pattern.P10_2)).toBe(sunyiu10d2);
  });
  it("older results (the default version) have no 30-2 or G tables; the current version adds them; screenings never have one", () => {
    for (const p of [Pattern.G, Pattern.P30_2, Pattern.S28, Pattern.C40, Pattern.Esterman, Pattern.Undefined])
      expect(hasNormativeDatabase(p)).toBe(false);
    for (const p of [Pattern.P24_2, Pattern.P10_2, Pattern.P30_2, Pattern.G])
      expect(hasNormativeDatabase(p, CURRENT_NORMATIVE_VERSION)).toBe(true);
    for (const p of [Pattern.S28, Pattern.C40, Pattern.Esterman]) expect(hasNormativeDatabase(p, CURRENT_NORMATIVE_VERSION)).toBe(false);
    expect(getNormativeDatabase(Pattern.P24_2, CURRENT_NORMATIVE_VERSION)).toBe(sunyiu24d2);
    expect(getNormativeDatabase(Pattern.P24_2, "no-such-version")).toBeNull();
  });
});
