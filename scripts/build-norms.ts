// Builds the normative databases from fixtures/visualfields (public control data, credited in its README) and writes each
// as a TypeScript module under core/analytics/normative/generated/ (what core imports; core cannot read files)
// and as a JSON copy under fixtures/normative/. Deterministic: the same inputs give byte-identical files, and
// tests/analytics/normative-build.test.ts rebuilds them in memory and fails when the committed files are stale.
//
//   sunyiu_24d2, sunyiu_10d2          visualFields 1.0.8's stored "smooth" normative values, converted as they are
//                                      (what the reference outputs were computed with).
//   agelinear_sunyiu_24d2 / _10d2      our own age-linear build from the raw SUNY-IU control fields (see
//                                      core/analytics/normative/age-linear.ts), the model for our other versions.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Pattern } from "../core/model/enums.ts";
import { tablesFromPackage, type PackageNormvals } from "../core/analytics/normative/package-tables.ts";
import { tablesToJson, tablesToModule } from "../core/analytics/normative/serialize.ts";
import { buildAgeLinear } from "../core/analytics/normative/age-linear.ts";
import { withGhtLimits } from "../core/analytics/normative/ght-limits.ts";
import { parseVisualFieldsCsv } from "../core/analytics/visualfields-csv.ts";
import { getPattern } from "../core/analytics/patterns.ts";
import type { NormativeTables } from "../core/analytics/normative/tables.ts";

export interface BuiltFile {
  readonly path: string;
  readonly text: string;
}

const credit =
  "visualFields 1.0.8 (Marín-Franch & Swanson, Apache-2.0); SUNY-IU control data by Swanson and Dul";

const emit = (t: NormativeTables, file: string, exportName: string, provenance: string): BuiltFile[] => [
  { path: `core/analytics/normative/generated/${file}.ts`, text: tablesToModule(t, exportName, provenance) },
  { path: `fixtures/normative/${file}.json`, text: tablesToJson(t) },
];

/** Every generated file (path relative to the repo root, and its text), built from the control data in `dataDir` (fixtures/visualfields). */
export function buildAllNormativeFiles(dataDir: string): BuiltFile[] {
  const json = (f: string) => JSON.parse(readFileSync(resolve(dataDir, f), "utf8")) as PackageNormvals;
  const csv = (f: string) => parseVisualFieldsCsv(readFileSync(resolve(dataDir, f), "utf8"));
  const out: BuiltFile[] = [];
  for (const [name, pattern, file, exportName, controls] of [
    ["sunyiu_24d2", Pattern.P24_2, "sunyiu-24d2", "sunyiu24d2", "vfctrSunyiu24d2.csv"],
    ["sunyiu_10d2", Pattern.P10_2, "sunyiu-10d2", "sunyiu10d2", "vfctrSunyiu10d2.csv"],
  ] as const) {
    const geometry = getPattern(pattern);
    const controlRows = csv(controls);
    // GHT limits are ours (the package has no GHT): control sector differences scored with the package's tables.
    const pkg = withGhtLimits(tablesFromPackage(json(`normvals-${name}.json`), {
      version: name,
      pattern,
      source: `${credit}; the package's stored smooth normative values ${name} (GHT limits computed by Isopter)`,
    }), geometry, controlRows);
    out.push(...emit(pkg, file, exportName, `Source: normvals-${name}.json, ${credit}.`));
    const built = buildAgeLinear(controlRows, geometry, {
      version: `agelinear_${name}`,
      source: `${credit}; age-linear build by Isopter from ${controls}`,
      ghRank: pkg.ghRank,
    });
    out.push(...emit(built, `agelinear-${file}`, `agelinear${exportName[0]!.toUpperCase()}${exportName.slice(1)}`,
      `Source: ${controls}, ${credit}; built by core/analytics/normative/age-linear.ts.`));
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = resolve(import.meta.dirname, "..");
  for (const f of buildAllNormativeFiles(resolve(root, "fixtures/visualfields"))) {
    const path = resolve(root, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
    console.log(`wrote ${f.path} (${f.text.length} bytes)`);
  }
}
