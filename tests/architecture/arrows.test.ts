import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, dirname, sep } from "node:path";

// The arrows of the house (shared/design/architecture.md, ARCHITECTURE.md):
// core -> core, effect, mitt only; adapters -> core (+ packages); web -> core, adapters;
// cli -> core, adapters; simulator -> core, adapters; never web <-> cli; nobody imports simulator; core's folders in
// layers (below); no import circle anywhere.
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

// Inside core, layers: model at the bottom; rules, analytics, device, scheduling and dicom (the standard's codes) on it
// (each knowing only the model); import (reading other systems' fields) on analytics and dicom; home (home monitoring's
// programmes, due sessions, adherence and triage) on rules and analytics; plots and client on top (plots draw analyses, client runs scheduling over devices), never importing each other.
// ports.ts (core's root) names what the outside provides, in the model's terms.
const coreLayers = [
  "model",
  "rules",
  "analytics",
  "device",
  "scheduling",
  "dicom",
  "import",
  "home",
  "plots",
  "client",
  "ports.ts",
] as const;
type CoreLayer = (typeof coreLayers)[number];
const middle: readonly CoreLayer[] = ["rules", "analytics", "device", "scheduling"];
const coreAllowed: Record<CoreLayer, readonly CoreLayer[]> = {
  model: [],
  rules: ["model"],
  analytics: ["model"],
  device: ["model"],
  scheduling: ["model"],
  dicom: ["model"],
  import: ["model", "analytics", "dicom"],
  home: ["model", "rules", "analytics"],
  "ports.ts": ["model"],
  plots: ["model", ...middle],
  client: ["model", ...middle, "ports.ts"],
};

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
function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /(?:^|;)\s*import\s*['"]([^'"]+)['"]/gm, // a side-effect import starts a statement ("results.import" in a string is none)
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

/** The core layer of a path inside core (its first folder, or ports.ts); undefined for anything else there. */
function coreLayerOf(root: string, absPath: string): CoreLayer | undefined {
  const [top, layer] = relative(root, absPath).split(sep);
  return top === "core" && (coreLayers as readonly string[]).includes(layer ?? "") ? (layer as CoreLayer) : undefined;
}

function violations(root: string): string[] {
  const found: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
        const where = `${relative(root, file)} imports '${spec}'`;
        if (spec.startsWith(".")) {
          const targetPath = resolve(dirname(file), spec);
          const target = folderOf(root, targetPath);
          if (target === undefined) {
            if (folder === "core") found.push(`${where}: core reaches outside the project folders`);
            continue;
          }
          if (!allowed[folder].includes(target)) found.push(`${where}: ${folder} -> ${target} is not an allowed arrow`);
          if (folder === "core" && target === "core") {
            const from = coreLayerOf(root, file);
            const to = coreLayerOf(root, targetPath);
            if (from === undefined || to === undefined)
              found.push(`${where}: core/${from ?? "?"} -> core/${to ?? "?"}: a file outside core's layers`);
            else if (from !== to && !coreAllowed[from].includes(to))
              found.push(`${where}: core/${from} -> core/${to} goes up or sideways in core's layers`);
          }
        } else if (folder === "core" && !corePackages.test(spec)) {
          found.push(`${where}: core may import only core, effect and mitt`);
        }
      }
    }
  }
  return found;
}

/** The project's relative imports between source files, as a graph (an import of a folder or a missing file is left out). */
function importGraph(root: string): Map<string, string[]> {
  const files = new Set(folders.flatMap((folder) => sourceFiles(join(root, folder))));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(file, "utf8"))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => files.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Every import circle (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function importCycles(root: string): string[][] {
  const graph = importGraph(root);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(root, w));
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** A scratch project tree for the sample-tree tests: `write` puts a file at a path below it. */
function sampleTree(prefix: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(tmp, path)), { recursive: true });
    writeFileSync(join(tmp, path), text);
  };
  return { tmp, write };
}

describe("architecture arrows", () => {
  it("finds import specifiers of every form", () => {
    const text = `import a from "x"; import type { B } from './b'; import "./side"; export * from "../c";
      const d = await import("./dyn"); import {\n e,\n f } from "multi";\n const name = "results.import", method = "POST";`;
    expect(importSpecifiers(text).sort()).toEqual(["../c", "./b", "./dyn", "./side", "multi", "x"].sort());
  });

  it("reports forbidden arrows in a sample tree", () => {
    const { tmp, write } = sampleTree("arrows-");
    write(
      "core/a.ts",
      `import React from "react";\nimport { x } from "../web/x";\nimport { Schema } from "effect";\nimport fs from "node:fs";`,
    );
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

  it("reports arrows that go up or sideways between core's layers", () => {
    const { tmp, write } = sampleTree("arrows-core-");
    write("core/model/a.ts", `import { r } from "../rules/r.ts";`);
    write("core/rules/r.ts", `import { a } from "../model/a.ts";\nimport { g } from "../analytics/g.ts";`);
    write("core/analytics/g.ts", `import { a } from "../model/a.ts";\nimport { h } from "./h.ts";`);
    write("core/plots/p.ts", `import { g } from "../analytics/g.ts";\nimport { c } from "../client/c.ts";`);
    write("core/client/c.ts", `import { r } from "../rules/r.ts";\nimport { port } from "../ports.ts";`);
    write("core/ports.ts", `import { a } from "./model/a.ts";`);
    const found = violations(tmp);
    expect(found).toHaveLength(3);
    expect(found.join("\n")).toContain("core/model -> core/rules");
    expect(found.join("\n")).toContain("core/rules -> core/analytics");
    expect(found.join("\n")).toContain("core/plots -> core/client");
  });

  it("finds import circles, however long", () => {
    const { tmp, write } = sampleTree("arrows-cycles-");
    write("web/a.tsx", `import { b } from "./b.tsx";`);
    write("web/b.tsx", `import type { A } from "./a.tsx";`);
    write("core/x.ts", `import { y } from "./y.ts";`);
    write("core/y.ts", `import { z } from "./deeper/z.ts";`);
    write("core/deeper/z.ts", `export { x } from "../x.ts";`);
    write("cli/free.ts", `import { x } from "../core/x.ts";`);
    expect(importCycles(tmp)).toEqual(
      expect.arrayContaining([
        ["web/a.tsx", "web/b.tsx"],
        ["core/deeper/z.ts", "core/x.ts", "core/y.ts"],
      ]),
    );
    expect(importCycles(tmp)).toHaveLength(2);
  });

  it("has no import circle", () => {
    expect(importCycles(projectRoot)).toEqual([]);
  });

  it("keeps every import of this project on an allowed arrow", () => {
    expect(violations(projectRoot)).toEqual([]);
  });
});

/** The imports of files under `from` that land under `to` (both relative to root). */
function importsBetween(root: string, from: string, to: string): string[] {
  const target = join(root, to) + sep;
  return sourceFiles(join(root, from)).flatMap((file) =>
    importSpecifiers(readFileSync(file, "utf8"))
      .filter((spec) => spec.startsWith(".") && resolve(dirname(file), spec).startsWith(target))
      .map((spec) => `${relative(root, file)} imports '${spec}'`),
  );
}

describe("no import cycle between the server and the simulator's control", () => {
  // start.ts hands the server the control port; the server's simulator routes steer the headsets through it.
  const serverToControl = (root: string) =>
    importsBetween(root, "simulator/server", "simulator/control").filter((i) => !i.endsWith("control/port.ts'"));

  it("finds the arrows either way in a sample tree", () => {
    const { tmp, write } = sampleTree("cycle-");
    write("simulator/server/a.ts", `import type { P } from "../control/port.ts";\nimport { h } from "../control/headset-control.ts";`);
    write("simulator/control/b.ts", `import { ctx } from "../server/context.ts";`);
    expect(importsBetween(tmp, "simulator/control", "simulator/server")).toEqual(["simulator/control/b.ts imports '../server/context.ts'"]);
    expect(serverToControl(tmp)).toEqual(["simulator/server/a.ts imports '../control/headset-control.ts'"]);
  });

  it("simulator/control imports nothing of simulator/server; the server imports only control/port.ts", () => {
    expect(importsBetween(projectRoot, "simulator/control", "simulator/server")).toEqual([]);
    expect(serverToControl(projectRoot)).toEqual([]);
  });
});
