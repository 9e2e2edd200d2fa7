// Prints `N passed, N failed` from the runners' own JSON reports in .reports/ (vitest on each Node, playwright,
// typecheck, format and lint; a step that could not run writes {"passed":0,"failed":1} as typecheck does).
// Each failure is named above that line, so the tail of a CI log says which test to reproduce.
import { existsSync, readFileSync } from "node:fs";

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined);
let passed = 0;
let failed = 0;
const failures = [];

for (const step of ["typecheck", "biome", "node24-missing", "postgres-missing"]) {
  const report = read(`.reports/${step}.json`);
  if (report) {
    passed += report.passed;
    failed += report.failed;
    if (report.failed > 0) failures.push(step);
  }
}

for (const name of ["vitest", "vitest-node24"]) {
  const vitest = read(`.reports/${name}.json`);
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  const cwd = `${process.cwd()}/`;
  for (const file of vitest.testResults ?? []) {
    const path = file.name.replace(cwd, "");
    // A suite that fails to load has no tests of its own: count it as one failure.
    if (file.status === "failed" && file.assertionResults.length === 0) {
      failed += 1;
      failures.push(`${name} ${path}: ${(file.message ?? "did not load").split("\n")[0]}`);
    }
    for (const test of file.assertionResults ?? [])
      if (test.status === "failed")
        failures.push(`${name} ${path} > ${test.fullName}: ${(test.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)}`);
  }
}

const playwright = read(".reports/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected;
  const walk = (suite, trail) => {
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === "unexpected") {
          const error = test.results?.at(-1)?.error?.message ?? "";
          failures.push(`playwright [${test.projectName}] ${[...trail, spec.title].join(" > ")}: ${error.split("\n")[0].slice(0, 300)}`);
        }
  };
  for (const suite of playwright.suites ?? []) walk(suite, [suite.title]);
}

for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed`);
