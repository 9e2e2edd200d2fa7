// npm run sbom [-- --out FILE]: the release's bill of materials (issue 33), CycloneDX as npm's own `npm sbom` writes it
// for the production dependencies, checked against package-lock.json: every production package the lock installs must
// be a component at its locked version, else the run fails naming the ones missing. The test suite runs the same check
// (tests/scripts/sbom.test.ts), so CI refuses a release whose bill would leave a dependency out.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Component {
  readonly "bom-ref"?: string;
  readonly name: string;
  readonly group?: string;
  readonly version: string;
  readonly properties?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}
export interface Bom {
  readonly bomFormat: string;
  readonly specVersion: string;
  readonly components: readonly Component[];
  readonly metadata?: { readonly component?: Component };
  readonly dependencies?: ReadonlyArray<{ readonly ref: string; readonly dependsOn?: readonly string[] }>;
}
interface LockPackage {
  readonly version?: string;
  readonly dev?: boolean;
  readonly devOptional?: boolean;
  readonly link?: boolean;
}

const development = (c: Component) => c.properties?.some((p) => p.name === "cdx:npm:package:development" && p.value === "true");

/**
 * `npm sbom` of the production dependencies of the package at `root`. npm 11's `--omit dev` drops production packages
 * that dev tools also use (@lingui/core, react, pg-protocol here), so the whole tree is asked for and the components npm
 * itself marks `cdx:npm:package:development` are left out, with their edges.
 */
export function productionBom(root: string): Bom {
  const text = execFileSync("npm", ["sbom", "--sbom-format", "cyclonedx"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  const all = JSON.parse(text) as Bom;
  const components = all.components.filter((c) => !development(c));
  const kept = new Set(components.map((c) => c["bom-ref"]));
  const dependencies = all.dependencies
    ?.filter((d) => kept.has(d.ref) || d.ref === all.metadata?.component?.["bom-ref"])
    .map((d) => ({ ref: d.ref, dependsOn: (d.dependsOn ?? []).filter((r) => kept.has(r)) }));
  return { ...all, components, ...(dependencies ? { dependencies } : {}) };
}

/** The production packages package-lock.json installs: not dev-only, and present in node_modules (optional ones may not be). */
export function lockedProductionPackages(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockPackage> };
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== "" && !p.dev && !p.devOptional && !p.link && existsSync(join(root, path)))
    .map(([path, p]) => `${path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)}@${p.version}`);
}

/** Production packages the bill leaves out, as name@version. */
export function missingFromBom(bom: Bom, locked: readonly string[]): string[] {
  const listed = new Set(bom.components.map((c) => `${c.group ? `${c.group}/` : ""}${c.name}@${c.version}`));
  return [...new Set(locked)].filter((p) => !listed.has(p)).sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const at = process.argv.indexOf("--out");
  const out = at > 0 ? process.argv[at + 1]! : "sbom.cdx.json";
  const bom = productionBom(root);
  const missing = missingFromBom(bom, lockedProductionPackages(root));
  if (missing.length > 0) {
    console.error(`sbom: ${missing.length} production package(s) missing from the bill: ${missing.join(", ")}`);
    process.exit(1);
  }
  writeFileSync(out, `${JSON.stringify(bom, null, 2)}\n`);
  console.log(`sbom: ${bom.components.length} components (CycloneDX ${bom.specVersion}) written to ${out}`);
}
