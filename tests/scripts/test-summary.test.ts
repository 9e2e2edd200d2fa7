import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

// `.ci/run` ends with `N passed, N failed` counted from the runners' own reports (the brief), and CI shows only the
// log's tail: each failure is named just above that line, so a failed run says which test to reproduce.

const script = resolve("scripts/test-summary.mjs");
let root: string;
const report = (name: string, value: unknown) => writeFileSync(join(root, ".reports", name), JSON.stringify(value));
const summary = () => execFileSync("node", [script], { cwd: root, encoding: "utf8" }).trim().split("\n");

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "isopter-summary-"));
  mkdirSync(join(root, ".reports"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("counts every runner's report and names each failure above the last line", () => {
  report("typecheck.json", { passed: 1, failed: 0 });
  report("biome.json", { passed: 0, failed: 1 });
  report("vitest.json", {
    numPassedTests: 2,
    numFailedTests: 1,
    testResults: [
      {
        name: join(root, "tests/a.test.ts"),
        status: "failed",
        assertionResults: [
          { fullName: "a works", status: "passed" },
          { fullName: "a fails", status: "failed", failureMessages: ["AssertionError: expected 1 to be 2\n    at line"] },
        ],
      },
      { name: join(root, "tests/broken.test.ts"), status: "failed", message: "Cannot find module x", assertionResults: [] },
    ],
  });
  report("playwright.json", {
    stats: { expected: 3, flaky: 1, unexpected: 1 },
    suites: [
      {
        title: "auth.spec.ts",
        specs: [
          {
            title: "log in",
            tests: [{ projectName: "chromium", status: "unexpected", results: [{ error: { message: "Timeout\nmore" } }] }],
          },
        ],
      },
    ],
  });
  const lines = summary();
  expect(lines.at(-1)).toBe("7 passed, 4 failed");
  expect(lines.slice(0, -1)).toEqual([
    "FAILED biome",
    "FAILED vitest tests/a.test.ts > a fails: AssertionError: expected 1 to be 2",
    "FAILED vitest tests/broken.test.ts: Cannot find module x",
    "FAILED playwright [chromium] auth.spec.ts > log in: Timeout",
  ]);
});

it("prints only the count when everything passed", () => {
  report("typecheck.json", { passed: 1, failed: 0 });
  expect(summary()).toEqual(["1 passed, 0 failed"]);
});
