import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// Issue 22 point 1: a clone of the repository alone builds and tests. The public data it needs lives in fixtures/
// (fixtures/visualfields/README.md credits it); nothing may reach for a folder beside the repository.
const root = resolve(import.meta.dirname, "../..");
const files = () =>
  execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "" && f !== "node_modules");

describe("the repository stands alone", () => {
  it("no file but Markdown names a data folder outside the repository", () => {
    const offenders = files()
      .filter((f) => !f.endsWith(".md") && !/\.(png|jpg|ico|woff2?)$/.test(f))
      .flatMap((f) => {
        let text: string;
        try {
          text = readFileSync(join(root, f), "utf8");
        } catch {
          return [];
        } // deleted in the work tree
        return text.split("\n").flatMap((line, i) => (/\.\.\/shared|shared\/data\//.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : []));
      });
    expect(offenders).toEqual([]);
  });

  it("a copy of the project in an empty temporary folder (no shared folder beside it) passes the analytics suites", () => {
    const tmp = mkdtempSync(join(tmpdir(), "isopter-clone-"));
    const copy = join(tmp, "isopter");
    try {
      for (const f of files()) {
        mkdirSync(dirname(join(copy, f)), { recursive: true });
        try {
          cpSync(join(root, f), join(copy, f));
        } catch {
          /* deleted in the work tree */
        }
      }
      symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
      const run = spawnSync(
        join(copy, "node_modules/.bin/vitest"),
        ["run", "tests/analytics", "tests/perimetry/sors.test.ts", "--reporter=dot"],
        { cwd: copy, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 240_000 },
      );
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Test Files\s+.*\d+ passed/);
      expect(run.stdout).not.toMatch(/failed/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 300_000);
});
