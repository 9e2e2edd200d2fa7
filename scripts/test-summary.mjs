// Prints `N passed, N failed` from the runners' own JSON reports in .reports/ (vitest, playwright, typecheck).
import { existsSync, readFileSync } from "node:fs";

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined);
let passed = 0;
let failed = 0;

const typecheck = read(".reports/typecheck.json");
if (typecheck) {
  passed += typecheck.passed;
  failed += typecheck.failed;
}

const vitest = read(".reports/vitest.json");
if (vitest) {
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
