// Prints `N passed, N failed` from the runners' own JSON reports in .reports/ (vitest on each Node, playwright,
// typecheck, format and lint; a step that could not run writes {"passed":0,"failed":1} as typecheck does).
import { existsSync, readFileSync } from "node:fs";

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined);
let passed = 0;
let failed = 0;

for (const step of ["typecheck", "biome", "node24-missing"]) {
  const report = read(`.reports/${step}.json`);
  if (report) {
    passed += report.passed;
    failed += report.failed;
  }
}

for (const name of ["vitest", "vitest-node24"]) {
  const vitest = read(`.reports/${name}.json`);
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  // A suite that fails to load has no tests of its own: count it as one failure.
  for (const file of vitest.testResults ?? []) if (file.status === "failed" && file.assertionResults.length === 0) failed += 1;
}

const playwright = read(".reports/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected;
}

console.log(`${passed} passed, ${failed} failed`);
