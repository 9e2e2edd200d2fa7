import { readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildBundle, currentBundle } from "../../cli/bundle.mjs";
import { projectRoot as cliProjectRoot } from "../../cli/project-root.ts";
import { isopterProcess, projectRoot } from "./harness.ts";

// `isopter` runs bundled (cli/bundle.mjs) so it starts without tsx's loader; a changed source is built again before
// the next run, so what runs is always what the sources say.
describe("the bundled CLI", () => {
  it("is rebuilt when a source it was built from changes, and runs", async () => {
    const entry = currentBundle() ?? (await buildBundle());
    expect(currentBundle()).toBe(entry);
    const current = JSON.parse(readFileSync(join(projectRoot, "dist/cli/current.json"), "utf8")) as { inputs: Record<string, string> };
    expect(Object.keys(current.inputs)).toContain("cli/commands/export.ts");
    // Touch a source (same content, newer time): the build no longer counts as current.
    const source = join(projectRoot, "cli/io.ts");
    const { atime, mtime } = statSync(source);
    utimesSync(source, atime, new Date(mtime.getTime() + 1000));
    try {
      expect(currentBundle()).toBeNull();
      const run = await isopterProcess(["--version"]);
      expect(run.code).toBe(0);
      expect(currentBundle()).not.toBeNull();
      expect(currentBundle()).not.toBe(entry);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });

  it("finds the repository's root from the sources as from the bundle", () => {
    expect(cliProjectRoot()).toBe(projectRoot);
  });

  it("runs from the sources through tsx when ISOPTER_SOURCE_MAPS=1", async () => {
    const run = await isopterProcess(["analyse", "--bogus"], { ISOPTER_SOURCE_MAPS: "1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--bogus'");
  });
});
