// Builds the normative databases from fixtures/visualfields (public control data, credited in its README) and writes each
// as a TypeScript module under core/analytics/normative/generated/ (what core imports; core cannot read files)
// and as a JSON copy under fixtures/normative/. Deterministic: the same inputs give byte-identical files, and
// tests/analytics/normative-build.test.ts rebuilds them in memory and fails when the committed files are stale.
//
//   sunyiu_24d2, sunyiu_10d2          visualFields 1.0.8's stored "smooth" normative values, converted as they are
//                                      (what the reference outputs were computed with).
//   agelinear_sunyiu_24d2 / _10d2      our own age-linear build from the raw SUNY-IU control fields (see
//                                      core/analytics/normative/age-linear.ts), the model for our other versions.
//   isopter_iowa_30d2_1, _g1_1         30-2 and G from the Iowa full-field healthy controls: a spatial age-linear model
//                                      anchored to SUNY-IU 24-2's mean (core/analytics/normative/full-field.ts);
//   isopter_iowa_30d2_2, _g1_2         the same anchored to SUNY-IU 24-2's spread too (model 2). Run as a script, this
//                                      also prints the calibration (held-out controls, SUNY-IU comparison).
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
import {
  anchorTo,
  fitFullField,
  fullFieldTables,
  joinControlSets,
  parseIowaControls,
  parseLocationMap,
  type ControlSet,
  type FullFieldModel,
} from "../core/analytics/normative/full-field.ts";
import { fullFieldCalibration, formatCalibration } from "../core/analytics/normative/calibration.ts";

export interface BuiltFile {
  readonly path: string;
  readonly text: string;
}

const credit = "visualFields 1.0.8 (Marín-Franch & Swanson, Apache-2.0); SUNY-IU control data by Swanson and Dul";

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
    const pkg = withGhtLimits(
      tablesFromPackage(json(`normvals-${name}.json`), {
        version: name,
        pattern,
        source: `${credit}; the package's stored smooth normative values ${name} (GHT limits computed by Isopter)`,
      }),
      geometry,
      controlRows,
    );
    out.push(...emit(pkg, file, exportName, `Source: normvals-${name}.json, ${credit}.`));
    const built = buildAgeLinear(controlRows, geometry, {
      version: `agelinear_${name}`,
      source: `${credit}; age-linear build by Isopter from ${controls}`,
      ghRank: pkg.ghRank,
    });
    out.push(
      ...emit(
        built,
        `agelinear-${file}`,
        `agelinear${exportName[0]!.toUpperCase()}${exportName.slice(1)}`,
        `Source: ${controls}, ${credit}; built by core/analytics/normative/age-linear.ts.`,
      ),
    );
  }
  // Model 1 (results of isopter-fullfield-2026-11-25 keep reading with it) anchors the mean; model 2 also the spread.
  for (const version of [1, 2] as const) {
    const { model } = fullFieldModel(dataDir, { spread: version === 2 });
    const suffix = version === 1 ? "" : `-${version}`;
    for (const [pattern, file, exportName] of [
      [Pattern.P30_2, "iowa-30d2", "iowa30d2"],
      [Pattern.G, "iowa-g1", "iowaG1"],
    ] as const) {
      const tables = fullFieldTables(model, getPattern(pattern), {
        version: `isopter_${file.replace("-", "_")}_${version}`,
        source:
          `${iowaCredit}; spatial age-linear model by Isopter (core/analytics/normative/full-field.ts), anchored to ` +
          `SUNY-IU 24-2 normals${version === 2 ? " and their spread" : ""}; derived from public healthy controls, not a manufacturer's database`,
      });
      out.push(
        ...emit(
          tables,
          `${file}${suffix}`,
          `${exportName}${version === 1 ? "" : `Model${version}`}`,
          `Source: vfctrIowaPC26.csv, vfctrIowaPeri.csv, ${iowaCredit}; built by core/analytics/normative/full-field.ts.`,
        ),
      );
    }
  }
  return out;
}

const iowaCredit =
  "Iowa full-field healthy controls, Marín-Franch, Artes, Chong, Turpin & Wall, Data in Brief 21:75-82 (2018), in visualFields 1.0.8 (Apache-2.0)";

/**
 * The Iowa controls (central and peripheral tests joined) and the full-field model fitted and anchored to SUNY-IU 24-2
 * (its mean; with `spread`, model 2, its spread too).
 */
export function fullFieldModel(
  dataDir: string,
  options: { spread?: boolean } = { spread: true },
): { controls: ControlSet; model: FullFieldModel; anchor: (m: FullFieldModel) => FullFieldModel } {
  const text = (f: string) => readFileSync(resolve(dataDir, f), "utf8");
  const set = (csv: string, map: string): ControlSet => {
    const points = parseLocationMap(text(map), map);
    return { points, rows: parseIowaControls(text(csv), points.length, csv) };
  };
  const controls = joinControlSets(set("vfctrIowaPC26.csv", "locmap-pPC26.csv"), set("vfctrIowaPeri.csv", "locmap-pPeri.csv"));
  const reference = tablesFromPackage(JSON.parse(text("normvals-sunyiu_24d2.json")) as PackageNormvals, {
    version: "sunyiu_24d2",
    pattern: Pattern.P24_2,
    source: credit,
  });
  const anchor = (m: FullFieldModel) => anchorTo(m, getPattern(Pattern.P24_2), reference, options);
  return { controls, model: anchor(fitFullField(controls)), anchor };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = resolve(import.meta.dirname, "..");
  for (const f of buildAllNormativeFiles(resolve(root, "fixtures/visualfields"))) {
    const path = resolve(root, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
    console.log(`wrote ${f.path} (${f.text.length} bytes)`);
  }
  const dataDir = resolve(root, "fixtures/visualfields");
  const sunyiu = tablesFromPackage(JSON.parse(readFileSync(resolve(dataDir, "normvals-sunyiu_24d2.json"), "utf8")) as PackageNormvals, {
    version: "sunyiu_24d2",
    pattern: Pattern.P24_2,
    source: credit,
  });
  const controls = parseVisualFieldsCsv(readFileSync(resolve(dataDir, "vfctrSunyiu24d2.csv"), "utf8"));
  console.log(formatCalibration(fullFieldCalibration(fullFieldModel(dataDir), controls, sunyiu)));
}
