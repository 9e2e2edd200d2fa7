import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lockedProductionPackages, missingFromBom, productionBom } from "../../scripts/sbom.ts";

// Issue 33: "a bill of materials for every release (CycloneDX, from npm's own `npm sbom`), checked in CI to list every
// production dependency".

describe("the release's bill of materials", () => {
  it("is CycloneDX from npm sbom and lists every production package package-lock.json installs, at its version", () => {
    const bom = productionBom(process.cwd());
    expect(bom.bomFormat).toBe("CycloneDX");
    const locked = lockedProductionPackages(process.cwd());
    // The lock's reading is not empty-handed: each direct dependency of package.json is among the packages checked.
    const direct = Object.keys((JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: object }).dependencies);
    const names = new Set(locked.map((p) => p.slice(0, p.lastIndexOf("@"))));
    expect(direct.filter((d) => !names.has(d))).toEqual([]);
    expect(missingFromBom(bom, locked)).toEqual([]);
  }, 120_000);

  it("names a production package the bill leaves out, and ignores none", () => {
    const bom = { bomFormat: "CycloneDX", specVersion: "1.5", components: [{ name: "core", group: "@lingui", version: "5.9.5" }] };
    expect(missingFromBom(bom, ["@lingui/core@5.9.5", "pg@8.23.1", "pg@8.23.1"])).toEqual(["pg@8.23.1"]);
    expect(missingFromBom(bom, ["@lingui/core@5.9.6"])).toEqual(["@lingui/core@5.9.6"]);
  });
});
