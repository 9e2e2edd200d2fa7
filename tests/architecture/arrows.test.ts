import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, dirname, sep } from "node:path";

// The arrows of the house (shared/design/architecture.md, ARCHITECTURE.md):
// core -> core, effect, mitt only; adapters -> core (+ packages); web -> core, adapters;
// cli -> core, adapters; simulator -> core, adapters; never web <-> cli; nobody imports simulator.
const projectRoot = resolve(import.meta.dirname, "../..");
const folders = ["core", "adapters", "simulator", "web", "cli"] as const;
type Folder = (typeof folders)[number];

const allowed: Record<Folder, readonly Folder[]> = {
  core: ["core"],
  adapters: ["core", "adapters"],
  web: ["core", "adapters", "web"],
  cli: ["core", "adapters", "cli"],
  simulator: ["core", "adapters", "simulator"],
};

/** Packages core may import: nothing but effect and mitt (node: builtins included in the ban). */
const corePackages = /^(effect|effect\/.+|mitt)$/;

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(sourceFiles(full));
    else if (/\.(ts|tsx|mts|js|mjs|jsx)$/.test(name)) out.push(full);
  }
  return out;
}

/** Every static, side-effect, re-export and dynamic import specifier in a source text. */
export function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!);
  return specs;
}

function folderOf(root: string, absPath: string): Folder | undefined {
  const top = relative(root, absPath).split(sep)[0];
  return (folders as readonly string[]).includes(top ?? "") ? (top as Folder) : undefined;
}

function violations(root: string): string[] {
  const found: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
        const where = `${relative(root, file)} imports '${spec}'`;
        if (spec.startsWith(".")) {
          const target = folderOf(root, resolve(dirname(file), spec));
          if (target === undefined) {
            if (folder === "core") found.push(`${where}: core reaches outside the project folders`);
            continue;
          }
          if (!allowed[folder].includes(target)) found.push(`${where}: ${folder} -> ${target} is not an allowed arrow`);
        } else if (folder === "core" && !corePackages.test(spec)) {
          found.push(`${where}: core may import only core, effect and mitt`);
        }
      }
    }
  }
  return found;
}

describe("architecture arrows", () => {
  it("finds import specifiers of every form", () => {
    const text = `import a from "x"; import type { B } from './b'; import "./side"; export * from "../c";
      const d = await import("./dyn"); import {\n e,\n f } from "multi";`;
    expect(importSpecifiers(text).sort()).toEqual(["../c", "./b", "./dyn", "./side", "multi", "x"].sort());
  });

  it("reports forbidden arrows in a sample tree", () => {
    const tmp = mkdtempSync(join(tmpdir(), "arrows-"));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), text);
    };
    write("core/a.ts", `import React from "react";\nimport { x } from "../web/x";\nimport { Schema } from "effect";\nimport fs from "node:fs";`);
    write("adapters/b.ts", `import { y } from "../simulator/y";\nimport { c } from "../core/a";`);
    write("web/c.tsx", `import { z } from "../cli/z";`);
    const found = violations(tmp);
    expect(found).toHaveLength(5);
    expect(found.join("\n")).toContain("core/a.ts imports 'react'");
    expect(found.join("\n")).toContain("core/a.ts imports 'node:fs'");
    expect(found.join("\n")).toContain("core -> web");
    expect(found.join("\n")).toContain("adapters -> simulator");
    expect(found.join("\n")).toContain("web -> cli");
  });

  it("keeps every import of this project on an allowed arrow", () => {
    expect(violations(projectRoot)).toEqual([]);
  });
});
